import ReactorKit

/// A value that describes a state change, dispatched to a ``Store``.
///
/// The same protocol as ReactorKit's `Action` (a typealias), so an action type moves between a
/// ReactiveReSwift-style store and the native `ReactorKit.Store`, reactors and plugins unchanged.
public typealias Action = ReactorKit.Action

/// The action ReSwift reducers traditionally build their initial state from; kept so code that
/// names it compiles. A ``Store`` starts from its observable's value and never dispatches it.
public struct ReSwiftInit: Action {
  /// Creates the action.
  public init() {}
}
