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
    AsyncStream(bufferingPolicy: .unbounded) { continuation in
      let subscription = UncheckedSendable(
        state.subscribe(
          onNext: { continuation.yield($0) }, onCompleted: { continuation.finish() }))
      continuation.onTermination = { _ in subscription.value.dispose() }
    }
  }
}
