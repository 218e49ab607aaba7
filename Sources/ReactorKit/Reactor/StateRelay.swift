/// A value that can be read, replaced and observed, and never terminates: a
/// ``BehaviorSubject`` without errors or completion.
///
/// ``Stub/state`` is a `StateRelay`: setting ``value`` in a view test pushes a state to the
/// view. Thread-safe.
public final class StateRelay<Element>: ObservableType, @unchecked Sendable {
  // Safety: the subject is thread-safe.
  private let subject: BehaviorSubject<Element>

  /// Creates a relay holding `value`.
  public init(value: Element) {
    subject = BehaviorSubject(value: value)
  }

  /// The current value. Setting it notifies every subscriber, even when the new value equals
  /// the old one.
  public var value: Element {
    get {
      // The subject can neither fail nor be disposed from outside the relay.
      try! subject.value()
    }
    set {
      accept(newValue)
    }
  }

  /// Stores `event` as the current value and sends it to every subscriber.
  public func accept(_ event: Element) {
    subject.on(.next(event))
  }

  /// Subscribes `observer`: it receives the current value first, then every new one.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay's observable (always the same instance).
  public func asObservable() -> Observable<Element> {
    subject
  }
}
