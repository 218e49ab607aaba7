/// A ``PublishSubject`` that never terminates: it only accepts elements.
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable {
  // Safety: the subject is thread-safe.
  private let subject = PublishSubject<Element>()

  /// Creates a relay.
  public init() {}

  deinit {
    // Nothing can feed the subject any more (an operator chain may still hold it, as its
    // source): its subscriptions are released (see `SubscriptionLink`).
    subject.releaseObservers()
  }

  /// Broadcasts `event` to current subscribers.
  public func accept(_ event: Element) {
    subject.on(.next(event))
  }

  /// Subscribes `observer`; it never receives a terminal event.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay's observable (always the same instance).
  public func asObservable() -> Observable<Element> { subject }
}

/// A ``BehaviorSubject`` that never terminates: it holds a current ``value`` and accepts new
/// ones.
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable {
  // Safety: the subject is thread-safe.
  private let subject: BehaviorSubject<Element>

  /// Creates a relay holding `value`.
  public init(value: Element) {
    subject = BehaviorSubject(value: value)
  }

  deinit {
    // Nothing can feed the subject any more (an operator chain may still hold it, as its
    // source): its subscriptions are released (see `SubscriptionLink`).
    subject.releaseObservers()
  }

  /// The current value.
  public var value: Element {
    // The subject can neither fail nor be disposed from outside the relay.
    try! subject.value()
  }

  /// Stores `event` as the current value and broadcasts it.
  public func accept(_ event: Element) {
    subject.on(.next(event))
  }

  /// Subscribes `observer`: it receives the current value first.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay's observable (always the same instance).
  public func asObservable() -> Observable<Element> { subject }
}
