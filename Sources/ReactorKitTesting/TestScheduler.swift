import Foundation
import ReactorKitStreams

/// Converts ``TestScheduler``'s integer clock to real time: one unit is `resolution`
/// seconds (RxTest's converter).
public struct TestSchedulerVirtualTimeConverter: VirtualTimeConverterType {
  /// Seconds per virtual time unit.
  public let resolution: Double

  /// Creates a converter with `resolution` seconds per unit.
  public init(resolution: Double) {
    self.resolution = resolution
  }

  /// The date `virtualTime × resolution` seconds after 1970.
  public func convertFromVirtualTime(_ virtualTime: TestTime) -> RxTime {
    Date(timeIntervalSince1970: Double(virtualTime) * resolution)
  }

  /// The unit of `time`, rounded to the nearest.
  public func convertToVirtualTime(_ time: RxTime) -> TestTime {
    Int((time.timeIntervalSince1970 / resolution).rounded())
  }

  /// `virtualTimeInterval × resolution` seconds, in nanoseconds.
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TestTime) -> RxTimeInterval {
    .nanoseconds(Int((Double(virtualTimeInterval) * resolution * 1_000_000_000).rounded()))
  }

  /// The interval in units, rounded to the nearest; `.never` is `Int.max`.
  public func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> TestTime {
    convertToVirtualTimeInterval(timeInterval.seconds as TimeInterval)
  }

  /// `virtualTimeInterval × resolution` seconds (RxTest's conversion).
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TestTime) -> TimeInterval {
    Double(virtualTimeInterval) * resolution
  }

  /// The interval of `timeInterval` seconds in units, rounded to the nearest; an infinite
  /// or too long interval is `Int.max` (a negative one `Int.min`).
  public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TestTime {
    let units = (timeInterval / resolution).rounded()
    guard units < Double(Int.max) else { return .max }
    guard units > Double(Int.min) else { return .min }
    return Int(units)
  }

  /// `time + offset`, saturating at `Int.max`.
  public func offsetVirtualTime(_ time: TestTime, offset: TestTime) -> TestTime {
    let (sum, overflow) = time.addingReportingOverflow(offset)
    return overflow ? .max : sum
  }

  /// Compares two times.
  public func compareVirtualTime(_ lhs: TestTime, _ rhs: TestTime) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}

/// A scheduler with virtual time for deterministic tests of time-based code: a
/// `VirtualTimeScheduler` with an integer clock, as RxTest's.
///
/// Work runs only while the scheduler runs (`start()`, `advanceTo(_:)`), in order of
/// virtual time, first-scheduled first at equal times. By default one virtual unit is one
/// second and work scheduled "now" runs one unit later (a simulated processing delay), as in
/// RxTest.
public final class TestScheduler: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter>,
  @unchecked Sendable
{
  // Safety: the queue and clock are the base class's, guarded by its lock; the properties
  // added here are immutable.

  /// Whether work scheduled at or before the current time is moved one unit later.
  public let simulateProcessingDelay: Bool

  /// Creates a scheduler whose clock starts at `initialClock`.
  public init(
    initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true
  ) {
    self.simulateProcessingDelay = simulateProcessingDelay
    super.init(
      initialClock: initialClock,
      converter: TestSchedulerVirtualTimeConverter(resolution: resolution))
  }

  /// Seconds per virtual time unit.
  public var resolution: Double { converter.resolution }

  /// Converts a real interval to virtual units (rounded to the nearest unit).
  public func virtualInterval(_ interval: RxTimeInterval) -> TestTime {
    converter.convertToVirtualTimeInterval(interval)
  }

  /// Work scheduled through the scheduler interface at or before the current time runs one
  /// unit later when ``simulateProcessingDelay`` is on, as in RxTest.
  public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
    let current = clock
    return time <= current && simulateProcessingDelay ? current + 1 : time
  }

  /// Runs `action` at virtual `time`.
  public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
    scheduleAbsoluteVirtual((), time: time) { _ in
      action()
      return Disposables.create()
    }
  }

  /// An observer that records every event with the virtual time it arrived.
  public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
    TestableObserver(scheduler: self)
  }

  /// A hot observable: `events` happen at their absolute times whether or not anyone is
  /// subscribed.
  public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    HotObservable(scheduler: self, recordedEvents: events)
  }

  /// A cold observable: each subscriber sees `events` at their times relative to its
  /// subscription.
  public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    ColdObservable(scheduler: self, recordedEvents: events)
  }

  /// Creates the observable at `created`, subscribes at `subscribed`, disposes at
  /// `disposed`, runs the scheduler and returns what the observer recorded.
  ///
  /// `create` may return anything convertible to an observable (an `Observable`, a
  /// `Driver` or `Signal`, a ``TestableObservable``), as in RxTest.
  public func start<Source: ObservableConvertibleType>(
    created: TestTime, subscribed: TestTime, disposed: TestTime,
    _ create: @escaping () -> Source
  ) -> TestableObserver<Source.Element> {
    var source: Observable<Source.Element>?
    var subscription: Disposable?
    let observer = createObserver(Source.Element.self)
    scheduleAbsoluteVirtual((), time: created) { _ in
      source = create().asObservable()
      return Disposables.create()
    }
    scheduleAbsoluteVirtual((), time: subscribed) { _ in
      subscription = source?.subscribe(observer)
      return Disposables.create()
    }
    scheduleAbsoluteVirtual((), time: disposed) { _ in
      subscription?.dispose()
      return Disposables.create()
    }
    start()
    return observer
  }

  /// Like ``start(created:subscribed:disposed:_:)`` with creation at 100 and subscription
  /// at 200.
  public func start<Source: ObservableConvertibleType>(
    disposed: TestTime, _ create: @escaping () -> Source
  ) -> TestableObserver<Source.Element> {
    start(created: 100, subscribed: 200, disposed: disposed, create)
  }

  /// Like ``start(created:subscribed:disposed:_:)`` with the defaults 100, 200 and 1000.
  public func start<Source: ObservableConvertibleType>(_ create: @escaping () -> Source)
    -> TestableObserver<Source.Element>
  {
    start(created: 100, subscribed: 200, disposed: 1000, create)
  }
}

/// An observer that records events with the virtual time they arrived at.
public final class TestableObserver<Element>: ObserverType, @unchecked Sendable {
  // Safety: driven by one TestScheduler thread; `events` guarded by `lock`.
  private let lock = NSLock()
  private let scheduler: TestScheduler
  private var recorded: [Recorded<Event<Element>>] = []

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  /// The events received so far, with their virtual times.
  public var events: [Recorded<Event<Element>>] {
    lock.lock()
    defer { lock.unlock() }
    return recorded
  }

  /// Records `event` at the scheduler's current time.
  public func on(_ event: Event<Element>) {
    let time = scheduler.clock
    lock.lock()
    recorded.append(Recorded(time: time, value: event))
    lock.unlock()
  }
}

/// An observable made by a ``TestScheduler`` that records its subscriptions.
public class TestableObservable<Element>: ObservableType, @unchecked Sendable {
  // Safety: driven by one TestScheduler thread; mutable state guarded by `lock`.
  let lock = NSRecursiveLock()
  let scheduler: TestScheduler
  /// The events this observable plays.
  public let recordedEvents: [Recorded<Event<Element>>]
  var recordedSubscriptions: [Subscription] = []

  init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
    self.scheduler = scheduler
    self.recordedEvents = recordedEvents
  }

  /// Every subscription so far, with its start and end times.
  public var subscriptions: [Subscription] {
    lock.lock()
    defer { lock.unlock() }
    return recordedSubscriptions
  }

  /// Subscribes `observer` and records the subscription in ``subscriptions``; a hot
  /// observable sends it the events at their absolute times from now on, a cold one plays
  /// all of ``recordedEvents`` relative to now.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    fatalError("TestableObservable.subscribe is implemented by its subclasses.")
  }

  func recordSubscription() -> Int {
    lock.lock()
    defer { lock.unlock() }
    recordedSubscriptions.append(Subscription(scheduler.clock))
    return recordedSubscriptions.count - 1
  }

  func recordUnsubscription(at index: Int) {
    lock.lock()
    defer { lock.unlock() }
    let start = recordedSubscriptions[index].subscribe
    recordedSubscriptions[index] = Subscription(start, scheduler.clock)
  }
}

/// Plays events at absolute times to whoever is subscribed then, even after a terminal event.
///
/// The scheduled events keep the observable alive until they have run (as in RxTest), so a
/// test may create one, subscribe and drop it in a single expression.
final class HotObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
  // Safety: `observers` and `nextKey` are guarded by the inherited `lock`; the rest is the
  // superclass's (see ``TestableObservable``).
  private var observers: [Int: AnyObserver<Element>] = [:]
  private var nextKey = 0

  override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
    super.init(scheduler: scheduler, recordedEvents: recordedEvents)
    for recorded in recordedEvents {
      scheduler.scheduleAt(recorded.time) {
        self.lock.lock()
        let targets = self.observers.sorted { $0.key < $1.key }.map(\.value)
        self.lock.unlock()
        for observer in targets { observer.on(recorded.value) }
      }
    }
  }

  override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    lock.lock()
    let key = nextKey
    nextKey += 1
    observers[key] = AnyObserver(observer)
    lock.unlock()
    let index = recordSubscription()
    return Disposables.create { [weak self] in
      guard let self else { return }
      self.lock.lock()
      self.observers[key] = nil
      self.lock.unlock()
      self.recordUnsubscription(at: index)
    }
  }
}

/// Plays events relative to each subscription.
final class ColdObservable<Element>: TestableObservable<Element>, @unchecked Sendable {
  // Safety: no state of its own; the superclass's is guarded by its `lock`.
  override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
  where Observer.Element == Element {
    let index = recordSubscription()
    let start = scheduler.clock
    let group = CompositeDisposable()
    for recorded in recordedEvents {
      let disposable = scheduler.scheduleAbsoluteVirtual((), time: start + recorded.time) { _ in
        observer.on(recorded.value)
        return Disposables.create()
      }
      group.insert(disposable)
    }
    return Disposables.create { [weak self] in
      group.dispose()
      self?.recordUnsubscription(at: index)
    }
  }
}
