extension Reactor where State: Sendable {
  /// The reactor's states as an asynchronous sequence that cannot fail: the current state
  /// first, then each new state.
  ///
  /// A reactor's state stream never fails, so, unlike `reactor.state.values`, the loop needs
  /// no `try`. States are buffered without limit, so a slow consumer sees every state in
  /// order. The sequence does not hold the reactor.
  ///
  /// > Important: As in ReactorKit, a reactor's state stream does not complete when the
  /// > reactor is freed, so neither does this sequence: end the loop by cancelling its task
  /// > (SwiftUI's `task` modifier does when the view goes away) or by breaking out of it.
  /// > Either ends the subscription.
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
  /// - Returns: A sequence that ends when the iterating task is cancelled (see ``states``).
  public func values<Value: Equatable & Sendable>(_ path: KeyPath<State, Value>)
    -> AsyncStream<Value>
  {
    state.map { $0[keyPath: path] }.distinctUntilChanged().nonFailingValues
  }
}
