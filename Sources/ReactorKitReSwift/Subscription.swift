// The class and its stored `observer` are declared in `Internal/SubscriptionStorage.swift`.

extension Subscription {
  /// Creates a subscription fed by `sink`: `sink` receives the function that passes a pair of
  /// previous and new value into this subscription.
  @inlinable
  public convenience init(
    sink: @escaping (@escaping (_ oldState: State?, _ newState: State) -> Void) -> Void
  ) {
    self.init()
    sink { [self] oldState, newState in newValues(oldState: oldState, newState: newState) }
  }

  /// A subscription of the part of the state `selector` picks.
  @inlinable
  public func select<Substate>(_ selector: @escaping (State) -> Substate) -> Subscription<
    Substate
  > {
    let selected = Subscription<Substate>()
    observer = { oldState, newState in
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
    observer = { oldState, newState in
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
    observer?(oldState, newState)
  }
}

extension Subscription where State: Equatable {
  /// A subscription that skips a new value equal (`==`) to the previous one.
  @inlinable
  public func skipRepeats() -> Subscription<State> {
    skipRepeats(==)
  }
}
