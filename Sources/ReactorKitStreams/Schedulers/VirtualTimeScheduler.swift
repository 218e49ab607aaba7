import Foundation

/// Converts between a ``VirtualTimeScheduler``'s time units and real time (RxSwift's
/// parametrisation of virtual time).
public protocol VirtualTimeConverterType: Sendable {
  /// A point on the virtual clock.
  associatedtype VirtualTimeUnit
  /// A distance between two points on the virtual clock.
  associatedtype VirtualTimeIntervalUnit

  /// The real date of `virtualTime`.
  func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
  /// The virtual time of the real date `time`.
  func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
  /// The real interval of `virtualTimeInterval`, in seconds (RxSwift's requirement).
  ///
  /// Implement either this pair or the ``RxTimeInterval`` pair: each has a default that
  /// calls the other.
  func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit)
    -> TimeInterval
  /// The virtual interval of the real interval `timeInterval`, in seconds (RxSwift's
  /// requirement; never infinite).
  func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
  /// The real interval of `virtualTimeInterval`.
  func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit)
    -> RxTimeInterval
  /// The virtual interval of the real interval `timeInterval` (never `.never`).
  func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> VirtualTimeIntervalUnit
  /// `time` moved by `offset`.
  func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit)
    -> VirtualTimeUnit
  /// How `lhs` compares with `rhs`.
  func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

extension VirtualTimeConverterType {
  /// `convertFromVirtualTimeInterval(_:) -> RxTimeInterval` in seconds.
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit)
    -> TimeInterval
  {
    (convertFromVirtualTimeInterval(virtualTimeInterval) as RxTimeInterval).seconds
  }

  /// `convertToVirtualTimeInterval(_:)` of `timeInterval` seconds as an ``RxTimeInterval``
  /// (nanoseconds).
  public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval)
    -> VirtualTimeIntervalUnit
  {
    convertToVirtualTimeInterval(RxTimeInterval.nanoseconds(nanoseconds(of: timeInterval)))
  }

  /// `convertFromVirtualTimeInterval(_:) -> TimeInterval` as an ``RxTimeInterval``
  /// (nanoseconds).
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit)
    -> RxTimeInterval
  {
    .nanoseconds(nanoseconds(of: convertFromVirtualTimeInterval(virtualTimeInterval)))
  }

  /// `convertToVirtualTimeInterval(_:)` of `timeInterval` in seconds.
  public func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval)
    -> VirtualTimeIntervalUnit
  {
    convertToVirtualTimeInterval(timeInterval.seconds as TimeInterval)
  }

  private func nanoseconds(of seconds: TimeInterval) -> Int {
    let value = (seconds * 1_000_000_000).rounded()
    guard value < Double(Int.max) else { return .max }
    guard value > Double(Int.min) else { return .min }
    return Int(value)
  }
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable {
  /// `lhs < rhs`.
  case lessThan
  /// `lhs == rhs`.
  case equal
  /// `lhs > rhs`.
  case greaterThan
}

/// A scheduler on virtual time. `delay` and `observe(on:)` schedule one action per event on
/// such a scheduler, as RxSwift always does, so marble tests see RxSwift's times (on
/// `TestScheduler` each action runs one unit after the previous); on real schedulers they
/// deliver all events due at once in one action, which is cheaper.
@usableFromInline
protocol VirtualTimeScheduling: SchedulerType {}

extension VirtualTimeScheduler: VirtualTimeScheduling {}

/// A scheduler whose clock moves only while it runs work: the base of test schedulers
/// (`TestScheduler` in ReactorKitTesting), with RxSwift's names and semantics.
///
/// Scheduled work waits in a queue ordered by virtual time (first scheduled first at equal
/// times). ``start()`` runs it all, moving the clock to each item's time;
/// ``advanceTo(_:)`` runs what is due up to a time; ``stop()`` ends a run after the current
/// item. Work runs on the thread that drives the scheduler, never under its lock, so it may
/// schedule more work. Subclasses adjust the time of newly scheduled work with
/// ``adjustScheduledTime(_:)``.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType,
  @unchecked Sendable
{
  // Safety: `items`, `nextOrder`, `running` and `currentClock` are guarded by `lock`; work
  // runs outside it, on the driving thread; `converter` is immutable and `Sendable`.

  /// A point on the virtual clock.
  public typealias VirtualTime = Converter.VirtualTimeUnit
  /// A distance on the virtual clock.
  public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

  private final class Item {
    let time: VirtualTime
    var work: (() -> Disposable)?
    let result = SingleAssignmentDisposable()

    init(time: VirtualTime, work: @escaping () -> Disposable) {
      self.time = time
      self.work = work
    }
  }

  private let lock = Lock(recursive: true)
  private var items: [Item] = []
  private var running = false
  private var currentClock: VirtualTime

  /// Converts between virtual and real time.
  public let converter: Converter

  /// Creates a scheduler whose clock starts at `initialClock`.
  public init(initialClock: VirtualTime, converter: Converter) {
    currentClock = initialClock
    self.converter = converter
  }

  /// The current virtual time.
  public final var clock: VirtualTime {
    lock.withLock { currentClock }
  }

  /// The current virtual time as a date.
  public final var now: RxTime { converter.convertFromVirtualTime(clock) }

  /// Whether ``start()`` or ``advanceTo(_:)`` is running work.
  public final var isRunning: Bool { lock.withLock { running } }

  /// Schedules `action` for the current virtual time (as adjusted by
  /// ``adjustScheduledTime(_:)``).
  public final func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    scheduleAbsoluteVirtual(state, time: adjustScheduledTime(clock), action: action)
  }

  /// Schedules `action` `dueTime` after the current virtual time (adjusted by
  /// ``adjustScheduledTime(_:)``); `.never` never runs.
  public final func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    if dueTime == .never { return Disposables.create() }
    let time = converter.offsetVirtualTime(
      clock, offset: converter.convertToVirtualTimeInterval(dueTime))
    return scheduleAbsoluteVirtual(state, time: adjustScheduledTime(time), action: action)
  }

  /// Schedules `action` `dueTime` virtual units after the current virtual time, exactly.
  @discardableResult
  public final func scheduleRelativeVirtual<StateType>(
    _ state: StateType, dueTime: VirtualTimeInterval,
    action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    scheduleAbsoluteVirtual(
      state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
  }

  /// Schedules `action` at the absolute virtual `time`, exactly (work in the past runs next).
  ///
  /// - Returns: A disposable that cancels the work if it has not run, and disposes what it
  ///   returned once it has.
  @discardableResult
  public final func scheduleAbsoluteVirtual<StateType>(
    _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    let item = Item(time: time) { action(state) }
    lock.withLock {
      let index =
        items.firstIndex { converter.compareVirtualTime($0.time, time) == .greaterThan }
        ?? items.count
      items.insert(item, at: index)
    }
    return Disposables.create { [weak self] in
      item.result.dispose()
      guard let self else { return }
      self.lock.withLock {
        if let position = self.items.firstIndex(where: { $0 === item }) {
          self.items.remove(at: position)
        }
      }
    }
  }

  /// The time newly scheduled work is queued at; subclasses override it (a test scheduler
  /// moves work scheduled for now one unit later). Returns `time` unchanged by default.
  open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

  /// Runs all scheduled work in time order, moving the clock, until nothing is left or
  /// ``stop()`` is called. Does nothing when already running.
  public final func start() {
    run(upTo: nil)
  }

  /// Runs the work scheduled up to and including `virtualTime`, then sets the clock to it.
  ///
  /// - Precondition: `virtualTime` is not before the current time.
  public final func advanceTo(_ virtualTime: VirtualTime) {
    precondition(
      converter.compareVirtualTime(virtualTime, clock) != .lessThan,
      "\(type(of: self)).advanceTo: cannot move back in time.")
    run(upTo: virtualTime)
  }

  /// Moves the clock forward by `virtualInterval` without running work.
  ///
  /// - Precondition: the interval does not move the clock back.
  public final func sleep(_ virtualInterval: VirtualTimeInterval) {
    lock.withLock {
      let target = converter.offsetVirtualTime(currentClock, offset: virtualInterval)
      precondition(
        converter.compareVirtualTime(target, currentClock) != .lessThan,
        "\(type(of: self)).sleep: cannot move back in time.")
      currentClock = target
    }
  }

  /// Stops a running ``start()`` or ``advanceTo(_:)`` after the current work item.
  public final func stop() {
    lock.withLock { running = false }
  }

  private func nextItem(upTo limit: VirtualTime?) -> Item? {
    lock.withLock {
      guard running, let first = items.first else { return nil }
      if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan {
        return nil
      }
      items.removeFirst()
      if converter.compareVirtualTime(first.time, currentClock) == .greaterThan {
        currentClock = first.time
      }
      return first
    }
  }

  private func run(upTo limit: VirtualTime?) {
    let alreadyRunning = lock.withLock {
      defer { running = true }
      return running
    }
    if alreadyRunning { return }
    while let item = nextItem(upTo: limit) {
      guard let work = item.work, !item.result.isDisposed else { continue }
      item.work = nil
      item.result.setDisposable(work())
    }
    lock.withLock {
      if let limit, running, converter.compareVirtualTime(limit, currentClock) == .greaterThan {
        currentClock = limit
      }
      running = false
    }
  }
}
