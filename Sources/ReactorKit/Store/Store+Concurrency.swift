extension Store {
  /// Dispatches `action` and returns once it, and everything processing it dispatched, has
  /// been reduced and every subscriber notified.
  ///
  /// Unlike `dispatch(_:)`, it never blocks a thread while another thread is
  /// processing: the task is suspended and the processing thread handles the action, or
  /// hands the task the turn, which it then holds (processing queued actions in order) for a
  /// bounded number of others' actions. When the store is idle the action is processed at
  /// once on the calling thread. Called from inside the store's processing, the action is
  /// queued as with `dispatch`.
  ///
  /// The action is reduced even if the task is cancelled.
  ///
  /// - Parameter action: The action to dispatch.
  public func send(_ action: sending any Action) async {
    await core.send(action)
  }
}

extension Store where State: Sendable {
  /// The state as an asynchronous sequence: the current state first, then each new state.
  ///
  /// States are buffered without limit, so a slow consumer sees every state in order.
  /// Iteration ends when the store is freed; cancel the iterating task to stop earlier, which
  /// also releases the subscription. The sequence does not hold the store.
  ///
  /// ```swift
  /// for await state in store.states {
  ///   render(state)
  /// }
  /// ```
  public var states: AsyncStream<State> {
    state.nonFailingValues
  }
}

extension Store {
  /// The value at `path` as an asynchronous sequence that cannot fail: the current value
  /// first, then each new value when a reduction changes it (by `==`).
  ///
  /// The asynchronous form of ``slice(_:)``, and shares its evaluation: the value is read and
  /// compared once per reduction for every subscriber of the same key path. A store's states
  /// never fail, so, unlike `store.slice(\.path).values`, the loop needs no `try`. Values are
  /// buffered without limit; iteration ends when the store is freed or the iterating task is
  /// cancelled, and the sequence does not hold the store.
  ///
  /// ```swift
  /// for await user in store.values(\.session.user) {
  ///   render(user)
  /// }
  /// ```
  ///
  /// - Parameter path: The part of the state to follow.
  /// - Returns: The values at `path`.
  public func values<Value: Equatable & Sendable>(_ path: KeyPath<State, Value>)
    -> AsyncStream<Value>
  {
    slice(path).nonFailingValues
  }
}
