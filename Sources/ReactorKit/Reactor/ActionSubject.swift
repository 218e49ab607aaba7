import Synchronization

/// The subject behind ``Reactor/action``: it passes only `.next` events, so binding a source
/// that fails or completes never stops a reactor.
///
/// Thread-safe: ``on(_:)`` may be called from any thread, concurrently. The reactor that owns
/// the subject receives each action first; other subscribers then receive it serially, in the
/// order the subject accepted them. A subscriber receives the actions sent after it
/// subscribed, never one that was already being delivered (so a `take(until:)` on the action
/// stream, created inside `mutate(action:)`, is not triggered by the action being processed).
public final class ActionSubject<Element>: ObservableType, ObserverType, SubjectType,
  @unchecked Sendable
{
  // Safety: `primary` is immutable and thread-safe by construction; `channel` is
  // thread-safe.
  private let primary: ((Element) -> Void)?
  private let channel: ActionChannel<Element>

  /// Creates a subject with no subscribers.
  public convenience init() {
    self.init(channel: ActionChannel(), primary: nil)
  }

  /// Creates a subject that hands every element to `primary` before the subscribers of
  /// `channel`.
  ///
  /// Several subjects may share one channel (and one `primary`): they then behave as one
  /// subject, which lets a reactor hand out a new subject object after the previous one was
  /// released without losing its subscribers.
  init(channel: ActionChannel<Element>, primary: ((Element) -> Void)?) {
    self.channel = channel
    self.primary = primary
  }

  /// Sends a `.next` element to the reactor and every subscriber; `.error` and `.completed`
  /// are ignored.
  public func on(_ event: Event<Element>) {
    guard case .next(let element) = event else { return }
    let sequence = channel.nextSequenceNumber()
    primary?(element)
    channel.broadcast(element, sequence: sequence)
  }

  /// Subscribes `observer` to the elements sent from now on. It never receives a terminal
  /// event.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    channel.subscribe(observer)
  }

  /// The elements as an ``Observable`` (always the same instance).
  public func asObservable() -> Observable<Element> {
    channel.observable
  }

  /// The subject itself, as an observer.
  public func asObserver() -> ActionSubject<Element> {
    self
  }
}

/// The subscribers of an ``ActionSubject`` other than its reactor.
///
/// Each element carries the sequence number it was given when the subject accepted it; a
/// subscription skips elements numbered before it subscribed, which were already in flight.
final class ActionChannel<Element>: @unchecked Sendable {
  // Safety: the subject is thread-safe; the counter is atomic; `observable` is immutable.
  private let subject = PublishSubject<(UInt64, Element)>()
  private let counter = Atomic<UInt64>(0)
  private(set) var observable: Observable<Element>!

  init() {
    observable = .create { [weak self] observer in
      self?.subscribe(observer) ?? Disposables.create()
    }
  }

  func nextSequenceNumber() -> UInt64 {
    counter.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
  }

  func broadcast(_ element: Element, sequence: UInt64) {
    if subject.hasObservers { subject.on(.next((sequence, element))) }
  }

  func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    let since = counter.load(ordering: .acquiring)
    return subject.subscribe(
      AnyObserver { event in
        if case .next(let (sequence, element)) = event, sequence > since {
          observer.on(.next(element))
        }
      })
  }
}
