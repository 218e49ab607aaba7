/// How long the subject behind ``ObservableType/share(replay:scope:)`` lives.
public enum SubjectLifetimeScope: Sendable {
  /// Each connection gets its own subject: when the last observer leaves, or the source
  /// terminates, the subject and its replay buffer are dropped and the next observer starts
  /// a fresh subscription to the source. Equivalent to
  /// `multicast(makeSubject: { … }).refCount()`. The recommended default.
  case whileConnected
  /// One subject serves every connection: its replay buffer survives reconnection (later
  /// observers may see stale elements), and after the source terminated every later
  /// observer receives the replay and the terminal event without a new subscription.
  /// Equivalent to `multicast(subject).refCount()`.
  case forever
}

extension ObservableType {
  /// Shares one subscription to the source among all observers, replaying up to `replay`
  /// elements to each new observer.
  ///
  /// The source is subscribed when the first observer subscribes and disposed when the last
  /// one leaves; `scope` decides whether the replay buffer survives that (see
  /// ``SubjectLifetimeScope``).
  ///
  /// - Parameters:
  ///   - replay: The number of elements replayed to new observers (at least 0).
  ///   - scope: The lifetime of the sharing subject.
  /// - Returns: The shared sequence.
  @inlinable
  public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected)
    -> Observable<Element>
  {
    precondition(replay >= 0, "share(replay:scope:) needs a replay count of at least 0.")
    switch (scope, replay) {
    case (.whileConnected, 0):
      return multicast(makeSubject: { PublishSubject<Element>() }).refCount()
    case (.whileConnected, _):
      return multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: replay) })
        .refCount()
    case (.forever, 0):
      return multicast(PublishSubject<Element>()).refCount()
    case (.forever, _):
      return multicast(ReplaySubject<Element>.create(bufferSize: replay)).refCount()
    }
  }
}
