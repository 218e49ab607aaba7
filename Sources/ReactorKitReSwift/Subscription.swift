/// A description of which states a subscriber receives: a pipeline of selections and filters
/// over the pairs of a store's previous and new state.
///
/// ``Store/subscribe(_:transform:)`` hands the closure a subscription of the whole state;
/// the closure returns the refined one:
///
/// ```swift
/// store.subscribe(self) { $0.select(\.counter).skipRepeats() }
/// ```
///
/// Each stage sees the previous and the new value (the previous one is `nil` on the first
/// delivery, when the subscriber receives the current state).
///
/// A subscription is built before the store starts it and is then driven by one store, one
/// state at a time: set ``observer`` only while building it.
public final class Subscription<State> {
  /// Receives each pair of previous and new value this subscription lets through.
  @exclusivity(unchecked)
  public var observer: ((_ oldState: State?, _ newState: State) -> Void)?

  @inlinable
  init() {}

  /// Creates a subscription fed by `sink`: `sink` receives the function that passes a pair of
  /// previous and new value into this subscription.
  @inlinable
  public init(sink: @escaping (@escaping (_ oldState: State?, _ newState: State) -> Void) -> Void) {
    sink { [self] oldState, newState in newValues(oldState: oldState, newState: newState) }
  }

  /// A subscription of the part of the state `selector` picks.
  @inlinable
  public func select<Substate>(_ selector: @escaping (State) -> Substate) -> Subscription<
    Substate
  > {
    let selected = Subscription<Substate>()
    unsafe observer = { oldState, newState in
      selected.newValues(oldState: oldState.map(selector), newState: selector(newState))
    }
    return selected
  }

  /// A subscription of the part of the state at `keyPath`.
  @inlinable
  public func select<Substate>(_ keyPath: KeyPath<State, Substate>) -> Subscription<Substate> {
    select { $0[keyPath: keyPath] }
  }

  /// A subscription that skips a new value when `isRepeat(previous, new)` is `true`.
  ///
  /// The first value (the current state when subscribing) always passes.
  @inlinable
  public func skipRepeats(_ isRepeat: @escaping (_ oldState: State, _ newState: State) -> Bool)
    -> Subscription<State>
  {
    let filtered = Subscription<State>()
    unsafe observer = { oldState, newState in
      if let oldState, isRepeat(oldState, newState) { return }
      filtered.newValues(oldState: oldState, newState: newState)
    }
    return filtered
  }

  /// A subscription that skips a new value when `when(previous, new)` is `true` (the same as
  /// ``skipRepeats(_:)``).
  @inlinable
  public func skip(when: @escaping (_ oldState: State, _ newState: State) -> Bool)
    -> Subscription<State>
  {
    skipRepeats(when)
  }

  /// A subscription that passes a new value only when `when(previous, new)` is `true`.
  ///
  /// The first value (the current state when subscribing) always passes.
  @inlinable
  public func only(when: @escaping (_ oldState: State, _ newState: State) -> Bool)
    -> Subscription<State>
  {
    skipRepeats { !when($0, $1) }
  }

  /// Passes a pair of previous and new value into the pipeline.
  @inlinable
  func newValues(oldState: State?, newState: State) {
    unsafe observer?(oldState, newState)
  }
}

extension Subscription where State: Equatable {
  /// A subscription that skips a new value equal (`==`) to the previous one.
  @inlinable
  public func skipRepeats() -> Subscription<State> {
    skipRepeats(==)
  }
}
