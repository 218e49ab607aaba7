#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The time source of a ``LoggingPlugin``: wall-clock timestamps and a monotonic clock for
/// durations. Replace it in tests to make logs deterministic.
///
/// ```swift
/// let clock = LogClock.stepping(from: Date(timeIntervalSince1970: 0), by: .milliseconds(1))
/// ```
public struct LogClock: Sendable {
  /// The current wall-clock time, for event timestamps.
  public var now: @Sendable () -> Date
  /// A monotonic reading in nanoseconds, for durations.
  public var monotonicNanoseconds: @Sendable () -> UInt64

  /// Creates a clock from its two readings.
  public init(
    now: @escaping @Sendable () -> Date,
    monotonicNanoseconds: @escaping @Sendable () -> UInt64
  ) {
    self.now = now
    self.monotonicNanoseconds = monotonicNanoseconds
  }

  /// The system clocks: `Date()` and `CLOCK_MONOTONIC`.
  public static let system = LogClock(
    now: { Date() },
    monotonicNanoseconds: { MonotonicTime.nanoseconds() })

  /// A deterministic clock for tests: each reading of either clock advances it by `step`,
  /// starting at `start`.
  public static func stepping(from start: Date, by step: Duration) -> LogClock {
    let ticks = LockedBox<Int64>(0)
    let stepNanoseconds = step.nanoseconds
    let tick: @Sendable () -> Int64 = {
      ticks.withLock { value in
        defer { value += 1 }
        return value
      }
    }
    return LogClock(
      now: { start.addingTimeInterval(Double(tick() * stepNanoseconds) / 1_000_000_000) },
      monotonicNanoseconds: { UInt64(max(0, tick() * stepNanoseconds)) })
  }
}
