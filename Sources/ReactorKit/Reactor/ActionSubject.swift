/// The subject behind ``Reactor/action``: it passes only `.next` events, so binding a source
/// that fails or completes never stops a reactor.
///
/// Thread-safe: ``on(_:)`` may be called from any thread, concurrently. The reactor that owns
/// the subject receives each action first; other subscribers then receive it serially, in the
/// order the subject accepted them.
public final class ActionSubject<Element>: ObservableType, ObserverType, SubjectType,
  @unchecked Sendable
{
  // Safety: `primary` is immutable and thread-safe by construction; `subject` is thread-safe.
  private let primary: ((Element) -> Void)?
  private let subject = PublishSubject<Element>()

  /// Creates a subject with no subscribers.
  public init() {
    primary = nil
  }

  /// Creates a subject that hands every element to `primary` before any subscriber.
  init(primary: @escaping (Element) -> Void) {
    self.primary = primary
  }

  /// Sends a `.next` element to the reactor and every subscriber; `.error` and `.completed`
  /// are ignored.
  public func on(_ event: Event<Element>) {
    guard case .next(let element) = event else { return }
    primary?(element)
    if subject.hasObservers { subject.on(event) }
  }

  /// Subscribes `observer` to the elements sent from now on. It never receives a terminal
  /// event.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The elements as an ``Observable`` (always the same instance).
  public func asObservable() -> Observable<Element> {
    subject
  }

  /// The subject itself, as an observer.
  public func asObserver() -> ActionSubject<Element> {
    self
  }
}
