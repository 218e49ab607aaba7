import ReactorKitStreams

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
  // Safety: `primary` is immutable and thread-safe by construction; the subject of the other
  // subscribers and the observable are created at most once each, on first use, and
  // published through atomic words (retained references, released in `deinit`); the subject
  // is thread-safe; the counters are atomic.
  @usableFromInline
  struct Sequenced {
    @usableFromInline let number: UInt64
    @usableFromInline let element: Element

    @inlinable
    init(number: UInt64, element: Element) {
      self.number = number
      self.element = element
    }
  }

  /// The storage of ``subjectReference``, `observableReference`, ``counter`` and
  /// ``subscriptions``:
  /// ``AtomicSlot``s, so the first stored properties.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case subject, observable, counter, subscriptions
  }
  @usableFromInline var subjectSlot = AtomicSlot(UInt(0))
  @usableFromInline var observableSlot = AtomicSlot(UInt(0))
  @usableFromInline var counterSlot = AtomicSlot(UInt(0))
  @usableFromInline var subscriptionsSlot = AtomicSlot(0)
  @usableFromInline let primary: ((Element) -> Void)?
  /// The subject of the subscribers other than the reactor, created by the first one: a
  /// reactor nobody observes the actions of (the common case) carries no subject.
  /// (Typed `AnyObject`, so that the unspecialised deinitialiser releases them without looking
  /// up type metadata every time a reactor is freed; the accessors view the same word typed
  /// as what they make, and only they store into it.)
  @inlinable var subjectReference: OnceReference<AnyObject> {
    OnceReference(Slots.subject, of: self)
  }
  /// The observable of ``asObservable()``, created on first use.
  private var observableReference: OnceReference<AnyObject> {
    OnceReference(Slots.observable, of: self)
  }
  /// Each element carries the sequence number it was given when the subject accepted it; a
  /// subscription skips elements numbered before it subscribed, which were already in flight.
  @inlinable var counter: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.counter, of: self) }
  @inlinable var subscriptions: UnsafeAtomic<Int> { UnsafeAtomic(Slots.subscriptions, of: self) }

  /// Creates a subject with no subscribers.
  public convenience init() {
    self.init(primary: nil)
  }

  /// Creates a subject that hands every element to `primary` before its subscribers.
  @inlinable
  init(primary: ((Element) -> Void)?) {
    self.primary = primary
  }

  deinit {
    subjectReference.releaseUnshared()
    observableReference.releaseUnshared()
  }

  /// Sends a `.next` element to the reactor and every subscriber; `.error` and `.completed`
  /// are ignored.
  @inlinable
  public func on(_ event: Event<Element>) {
    guard case .next(let element) = event else { return }
    let sequence = nextSequenceNumber()
    primary?(element)
    broadcast(element, sequence: sequence)
  }

  /// Subscribes `observer` to the elements sent from now on. It never receives a terminal
  /// event.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    let since = counter.load(ordering: .acquiring)
    subscriptions.wrappingAdd(1, ordering: .acquiringAndReleasing)
    let subscription = subject.subscribe(
      AnyObserver { event in
        if case .next(let sequenced) = event, sequenced.number > since {
          observer.on(.next(sequenced.element))
        }
      })
    // Weak: the subject's `primary` may hold what holds this subscription. Linked: when the
    // subject is freed, the subscription (which the caller may have dropped) is released.
    return Disposables.linked(subscription) { [weak self] in
      self?.subscriptions.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
  }

  /// The elements as an ``Observable`` (always the same instance).
  public func asObservable() -> Observable<Element> {
    OnceReference<Observable<Element>>(Slots.observable, of: self).getOrMake {
      Observable<Element>.create { [weak self] observer in
        self?.subscribe(observer) ?? Disposables.create()
      }
    }
  }

  /// The subject itself, as an observer.
  public func asObserver() -> ActionSubject<Element> {
    self
  }

  // MARK: - Other subscribers

  @usableFromInline
  var subject: PublishSubject<Sequenced> {
    OnceReference<PublishSubject<Sequenced>>(Slots.subject, of: self).getOrMake {
      PublishSubject<Sequenced>()
    }
  }

  /// The number of the element being sent, or 0 when nobody is subscribed: such an element is
  /// in flight before any later subscriber joins, so no subscriber may receive it, and
  /// numbering it would cost an atomic read-modify-write per action for nothing.
  @inlinable
  func nextSequenceNumber() -> UInt64 {
    guard subscriptions.load(ordering: .acquiring) > 0 else { return 0 }
    return UInt64(counter.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue)
  }

  @inlinable
  func broadcast(_ element: Element, sequence: UInt64) {
    guard subscriptions.load(ordering: .acquiring) > 0 else { return }
    subject.on(.next(Sequenced(number: sequence, element: element)))
  }
}
