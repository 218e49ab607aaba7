import Foundation

/// Converts ``HistoricalScheduler``'s clock, a `Date`, to real time: virtual time is real
/// time, decoupled from the machine's clock (RxSwift's converter).
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
  /// Creates the converter.
  public init() {}

  /// Returns `virtualTime`.
  public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }

  /// Returns `time`.
  public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }

  /// Returns `virtualTimeInterval`.
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval)
    -> TimeInterval
  {
    virtualTimeInterval
  }

  /// Returns `timeInterval`.
  public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval {
    timeInterval
  }

  /// `time` moved by `offset` seconds.
  public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime {
    time.addingTimeInterval(offset)
  }

  /// Compares two dates.
  public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}

/// A virtual-time scheduler whose clock is a `Date` (RxSwift's `HistoricalScheduler`): for
/// replaying recorded, time-stamped events, or testing code that reads `now`, without
/// waiting.
///
/// Work runs only while the scheduler runs (``VirtualTimeScheduler/start()``,
/// ``VirtualTimeScheduler/advanceTo(_:)``), in order of its dates; the clock jumps to each.
///
/// ```swift
/// let scheduler = HistoricalScheduler(initialClock: recording.start)
/// for entry in recording.entries {
///   _ = scheduler.scheduleAbsoluteVirtual(entry, time: entry.date) { entry in
///     replay(entry)
///     return Disposables.create()
///   }
/// }
/// scheduler.start()
/// ```
open class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>,
  @unchecked Sendable
{
  // Safety: all state is the base class's, guarded by its lock.

  /// Creates a scheduler whose clock starts at `initialClock` (by default 1970-01-01).
  public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
    super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
  }
}
