extension Reactor where State: Sendable {
  /// The reactor's states as an asynchronous sequence that cannot fail: the current state
  /// first, then each new state.
  ///
  /// A reactor's state stream never fails, so, unlike `reactor.state.values`, the loop needs
  /// no `try`. States are buffered without limit, so a slow consumer sees every state in
  /// order. Iteration ends when the reactor is freed; cancel the iterating task (or break out
  /// of the loop) to stop earlier, which also ends the subscription. The sequence holds the
  /// reactor's state stream, not the reactor.
  ///
  /// ```swift
  /// for await state in reactor.states {
  ///   render(state)
  /// }
  /// ```
  public var states: AsyncStream<State> {
    state.nonFailingValues
  }

  /// The value at `path` of the reactor's states as an asynchronous sequence that cannot
  /// fail: the current value first, then each value that differs (by `==`) from the previous
  /// one.
  ///
  /// ```swift
  /// for await isLoading in reactor.values(\.isLoading) {
  ///   spinner.isHidden = !isLoading
  /// }
  /// ```
  ///
  /// - Parameter path: The part of the state to follow.
  /// - Returns: A sequence that ends when the reactor is freed or the iterating task is
  ///   cancelled.
  public func values<Value: Equatable & Sendable>(_ path: KeyPath<State, Value>)
    -> AsyncStream<Value>
  {
    state.map { $0[keyPath: path] }.distinctUntilChanged().nonFailingValues
  }
}
