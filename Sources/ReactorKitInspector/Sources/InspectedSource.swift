import ReactorKit

/// A store or reactor that an inspector watches: what the server needs from it, whatever its
/// state type.
protocol InspectedSource: AnyObject, Sendable {
  /// What the source's events carry.
  var info: SourceInfo { get }
  /// The name in the timeline.
  var name: String { get }
  /// `"store"` or `"reactor"`.
  var kindName: String { get }
  /// The current state, read on a server thread.
  func currentState() -> Any?
  /// Whether the source can move to a recorded state (a store whose reducer the inspector
  /// wraps).
  var canJump: Bool { get }
  /// Whether the source accepts actions from the page (a store, with an `ActionRegistry`).
  var canDispatch: Bool { get }
  /// The event the source was moved to, or `nil` when live.
  var jumpTarget: UInt64? { get }
  /// Moves the source to `state`, the state after event `sequence`.
  func jump(to sequence: UInt64, state: Any) -> Bool
  /// Moves the source back to the state it had before the first jump.
  func goLive() -> Bool
  /// Dispatches `action` into the source; false if it can't.
  func dispatch(_ action: any Action) -> Bool
}

extension InspectedSource {
  var name: String { info.name }
  var kindName: String { info.kindName }
}

/// A source the page can only watch: it neither jumps nor takes actions (a reactor, whose
/// state is its own to change, and the inspector's own notes).
protocol WatchedOnlySource: InspectedSource {}

extension WatchedOnlySource {
  var canJump: Bool { false }
  var canDispatch: Bool { false }
  var jumpTarget: UInt64? { nil }
  func jump(to sequence: UInt64, state: Any) -> Bool { false }
  func goLive() -> Bool { false }
  func dispatch(_ action: any Action) -> Bool { false }
}

/// What each event holds of its source: its name, kind and redactions. A small object of its
/// own, held strongly by the events, while the inspector's list holds the sources weakly (a
/// weakly referenced object's retains and releases all take the slow path).
final class SourceInfo: Sendable {
  let name: String
  let kindName: String
  /// The state type as a recording names it (`String(reflecting:)`), for a store.
  let stateType: String?
  /// A copy of a state with the source's own redactions applied.
  let redacted: @Sendable (Any) -> Any

  init(
    name: String, kindName: String, stateType: String? = nil,
    redacted: @escaping @Sendable (Any) -> Any = { $0 }
  ) {
    self.name = name
    self.kindName = kindName
    self.stateType = stateType
    self.redacted = redacted
  }
}

/// A weakly held source, for the inspector's list: a store or reactor that goes away leaves
/// the list (its events stay in the ring until they are overwritten).
struct WeakSource {
  weak var source: (any InspectedSource)?
}
