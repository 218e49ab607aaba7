import ReactorKitReSwift

// A counter written the ReSwift way, against ReactorKitReSwift: the same code compiles against
// ReSwift 6.1 with `import ReSwift`.

/// The app state.
public struct CounterState: StateType, Equatable {
  /// The counter's value, kept within ``limit``.
  public var counter = 0
  /// How many actions changed the counter.
  public var changes = 0

  /// The largest value the counter may reach, either way.
  public static let limit = 5

  public init() {}
}

/// Adds one to the counter.
public struct CounterActionIncrease: Action {
  public init() {}
}

/// Subtracts one from the counter.
public struct CounterActionDecrease: Action {
  public init() {}
}

/// Sets the counter back to zero.
public struct CounterActionReset: Action {
  public init() {}
}

/// The reducer: builds the initial state from `nil` (ReSwift's `ReSwiftInit`), then applies
/// each action.
public func counterReducer(action: Action, state: CounterState?) -> CounterState {
  var state = state ?? CounterState()
  switch action {
  case is CounterActionIncrease:
    state.counter += 1
    state.changes += 1
  case is CounterActionDecrease:
    state.counter -= 1
    state.changes += 1
  case is CounterActionReset:
    state.counter = 0
    state.changes += 1
  default:
    break
  }
  return state
}
