/// A ``ReplaySubject`` that never terminates: it only accepts elements, and replays the
/// buffered ones to every new subscriber.
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable {
  // Safety: the subject is thread-safe and never replaced.
  private let subject: ReplaySubject<Element>

  private init(subject: ReplaySubject<Element>) {
    self.subject = subject
  }

  deinit {
    // Nothing can feed the subject any more (an operator chain may still hold it, as its
    // source): its subscriptions are released (see `SubscriptionLink`).
    subject.releaseObservers()
  }

  /// Creates a relay that replays up to `bufferSize` of the latest elements.
  ///
  /// - Parameter bufferSize: How many elements new subscribers receive first.
  /// - Returns: The relay.
  public static func create(bufferSize: Int) -> ReplayRelay<Element> {
    ReplayRelay(subject: .create(bufferSize: bufferSize))
  }

  /// Creates a relay that replays every element it ever accepted.
  ///
  /// - Complexity: Memory grows with every accepted element.
  public static func createUnbound() -> ReplayRelay<Element> {
    ReplayRelay(subject: .createUnbound())
  }

  /// Buffers `event` and broadcasts it to current subscribers.
  public func accept(_ event: Element) {
    subject.on(.next(event))
  }

  /// Subscribes `observer`: it receives the buffered elements first, and never a terminal
  /// event.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay's observable (always the same instance).
  public func asObservable() -> Observable<Element> { subject }
}
