extension Reactor {
  /// Sends `action` to the reactor: the same as `action.onNext(action)`.
  ///
  /// The action is processed as described by ``action``: at once on the calling thread when
  /// the reactor is idle, or queued behind the action being processed.
  ///
  /// ```swift
  /// reactor.send(.refresh)
  /// ```
  ///
  /// - Parameter action: The action to send.
  @inlinable
  public func send(_ action: Action) {
    self.action.onNext(action)
  }
}
