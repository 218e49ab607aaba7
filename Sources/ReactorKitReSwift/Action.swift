import ReactorKit

/// A value that describes a state change, dispatched to a ``Store``.
///
/// The same protocol as ReactorKit's `Action` (a typealias), so an action type moves between a
/// ReSwift-style store and the native `ReactorKit.Store`, reactors and plugins unchanged.
public typealias Action = ReactorKit.Action

/// The action a ``Store`` created without an initial state reduces first, with a `nil` state,
/// so the reducer can build the initial state.
public struct ReSwiftInit: Action {
  @usableFromInline init() {}
}
