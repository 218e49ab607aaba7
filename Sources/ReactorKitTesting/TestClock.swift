import Foundation
import ReactorKitStreams

/// A `Clock` whose time is a ``TestScheduler``'s virtual time: `sleep` ends when the test
/// advances the scheduler, never in real time.
///
/// Give the code under test a clock (`any Clock<Duration>`, `ContinuousClock()` in the app)
/// and pass a `TestClock` in tests. Its sleeps and the scheduler's timers (`delay`,
/// `debounce`…) then share one timeline that the test moves:
///
/// ```swift
/// let scheduler = TestScheduler(initialClock: 0)
/// let clock = TestClock(scheduler: scheduler)  // one virtual unit = one second
/// let store = TestStore(reducer: timer, state: Timer(), middleware: [Timer.effects(clock: clock)])
///
/// store.send(TimerAction.start) { $0.isRunning = true }
/// await clock.advance(by: .seconds(1))        // the effect's `clock.sleep(for: .seconds(1))` ends
/// await store.receive(TimerAction.tick) { $0.ticks = 1 }
/// ```
///
/// ``advance(by:fileID:filePath:line:column:isolation:)`` moves the scheduler from sleep to
/// sleep and lets the tasks it wakes run before it goes on, so a task that sleeps again in a
/// loop is woken at each of its deadlines. Called from the main actor (a `@MainActor` test),
/// with effects that run on the main actor (`run` does), this is deterministic: woken tasks
/// run up to their next suspension before `advance` returns. Advancing the ``scheduler``
/// directly (`advanceTo`, ``TestScheduler/advance(by:fileID:filePath:line:column:)``) also
/// ends the sleeps that are due, but the woken tasks run later, on their executor; wait for
/// what they send with `TestStore`'s async `receive`.
///
/// A sleep starts when the task calls `sleep`: advance after the task has reached it. A task
/// started by an action is usually still waiting to run when `send` returns; `advance` lets
/// it run first.
///
/// Sleeps throw `CancellationError` when their task is cancelled, as `Task.sleep` does.
public final class TestClock: Clock, @unchecked Sendable {
  // Safety: `sleeps` and `nextToken` are only touched with `lock` held; `scheduler` is
  // thread-safe; `unit` is immutable.

  /// A point on a ``TestClock``: the time since the scheduler's virtual time 0.
  public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
    /// The time since the scheduler's virtual time 0.
    public var offset: Duration

    /// Creates the instant `offset` after the scheduler's virtual time 0.
    public init(offset: Duration) {
      self.offset = offset
    }

    /// The instant `duration` after this one.
    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` is before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, such as `3.0 seconds`.
    public var description: String { "\(offset)" }
  }

  /// The scheduler whose virtual time this clock tells.
  public let scheduler: TestScheduler

  private let unit: Duration
  private let lock = NSLock()
  private var sleeps: [UInt64: TestTime] = [:]
  private var nextToken: UInt64 = 0

  /// Creates a clock that tells `scheduler`'s virtual time: one unit is the scheduler's
  /// `resolution` in seconds.
  public init(scheduler: TestScheduler) {
    self.scheduler = scheduler
    unit = .nanoseconds(Int64((scheduler.resolution * 1_000_000_000).rounded()))
  }

  /// The scheduler's current virtual time.
  public var now: Instant {
    Instant(offset: unit * scheduler.clock)
  }

  /// One virtual time unit.
  public var minimumResolution: Duration { unit }

  /// The number of sleeps in progress (started and neither ended nor cancelled).
  public var sleepCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return sleeps.count
  }

  /// Suspends until the scheduler's virtual time reaches `deadline` (rounded up to a whole
  /// unit), or throws `CancellationError` when the task is cancelled first.
  ///
  /// A deadline that has passed returns at once.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let time = virtualTime(deadline)
    guard time > scheduler.clock else { return }
    let sleeper = Sleeper()
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        guard sleeper.install(continuation) else { return }
        let token = register(time)
        // Disposing is thread-safe.
        let scheduled = UncheckedSendable(
          scheduler.scheduleAbsoluteVirtual((), time: time) { [weak self] _ in
            self?.unregister(token)
            sleeper.wake()
            return Disposables.create()
          })
        sleeper.onCancel { [weak self] in
          scheduled.value.dispose()
          self?.unregister(token)
        }
      }
    } onCancel: {
      sleeper.cancel()
    }
  }

  /// Advances the scheduler by `duration`, sleep by sleep, letting the tasks each step wakes
  /// run before the next step.
  ///
  /// Runs on the caller's actor: from a `@MainActor` test, tasks on the main actor that were
  /// waiting to run (an effect started by `send`) or that a step woke run up to their next
  /// suspension before `advance` goes on. The scheduler's other work (timers of `delay`,
  /// `debounce`…) due in the interval runs too, in time order.
  ///
  /// The time moves in whole ticks of the scheduler's `resolution`: a duration that is not a
  /// whole number of ticks moves the nearest whole number and fails the test, saying so.
  ///
  /// - Parameters:
  ///   - duration: How far to move the time: a whole number of ticks. `.zero` only lets
  ///     waiting tasks run.
  ///   - fileID: The file ID of the call site, where a partial tick is reported. Leave the
  ///     default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  ///   - isolation: The caller's actor. Leave the default.
  public func advance(
    by duration: Duration = .zero, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation
  ) async {
    precondition(duration >= .zero, "TestClock.advance(by:): cannot move back in time.")
    let exact = (duration / unit).rounded()
    let units = exact >= Double(TestTime.max) ? TestTime.max : TestTime(exact)
    PartialTick.report(
      of: "TestClock", length: AdvanceLength(duration), resolution: scheduler.converter.resolution,
      moved: units, fileID: fileID, filePath: filePath, line: line, column: column)
    let target = scheduler.converter.offsetVirtualTime(scheduler.clock, offset: units)
    await advance(toVirtualTime: target)
  }

  /// Advances the scheduler to `deadline` (rounded up to a whole unit), sleep by sleep, as
  /// ``advance(by:fileID:filePath:line:column:isolation:)`` does.
  ///
  /// - Parameters:
  ///   - deadline: The instant to move to; at or after ``now``.
  ///   - isolation: The caller's actor. Leave the default.
  public func advance(to deadline: Instant, isolation: isolated (any Actor)? = #isolation) async {
    let target = virtualTime(deadline)
    precondition(target >= scheduler.clock, "TestClock.advance(to:): cannot move back in time.")
    await advance(toVirtualTime: target)
  }

  // MARK: - Private

  private func advance(
    toVirtualTime target: TestTime, isolation: isolated (any Actor)? = #isolation
  ) async {
    await letTasksRun()
    var previous: (time: TestTime, count: Int)?
    while let next = nextSleep(upTo: target) {
      // A sleep that the last step did not end (the scheduler was already running the
      // caller) would loop for ever: stop stepping and move the time in one go.
      if let previous, previous == next { break }
      previous = next
      scheduler.advanceTo(max(next.time, scheduler.clock))
      await letTasksRun()
    }
    if target > scheduler.clock {
      scheduler.advanceTo(target)
      await letTasksRun()
    }
  }

  /// The earliest sleep due at or before `target`, and how many sleeps are in progress.
  private func nextSleep(upTo target: TestTime) -> (time: TestTime, count: Int)? {
    lock.lock()
    defer { lock.unlock() }
    guard let earliest = sleeps.values.min(), earliest <= target else { return nil }
    return (earliest, sleeps.count)
  }

  /// Lets tasks that are waiting on the caller's executor run: woken sleepers, and tasks that
  /// hop once more before they sleep again or finish.
  private func letTasksRun(isolation: isolated (any Actor)? = #isolation) async {
    for _ in 0..<Self.yields { await Task.yield() }
  }

  /// How many times ``letTasksRun(isolation:)`` yields.
  private static let yields = 8

  /// The virtual time of `instant`, rounded up to a whole unit.
  private func virtualTime(_ instant: Instant) -> TestTime {
    let exact = instant.offset / unit
    let nearest = exact.rounded()
    // Within a rounding error of a whole unit: that unit, not the next.
    let units = abs(exact - nearest) < 1e-9 ? nearest : exact.rounded(.up)
    if units >= Double(TestTime.max) { return .max }
    return TestTime(units)
  }

  private func register(_ time: TestTime) -> UInt64 {
    lock.lock()
    defer { lock.unlock() }
    nextToken &+= 1
    sleeps[nextToken] = time
    return nextToken
  }

  private func unregister(_ token: UInt64) {
    lock.lock()
    sleeps[token] = nil
    lock.unlock()
  }
}

/// One sleep of a ``TestClock``: resumed exactly once, by the scheduler or by cancellation.
private final class Sleeper: @unchecked Sendable {
  // Safety: every property is only touched with `lock` held; continuations are resumed and
  // the cancel action run with it released.
  private let lock = NSLock()
  private var continuation: CheckedContinuation<Void, any Error>?
  private var cancelAction: (@Sendable () -> Void)?
  private var isCancelled = false

  /// Keeps `continuation`, or resumes it with `CancellationError` when the task was cancelled
  /// already; returns whether it was kept.
  func install(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
    lock.lock()
    guard !isCancelled else {
      lock.unlock()
      continuation.resume(throwing: CancellationError())
      return false
    }
    self.continuation = continuation
    lock.unlock()
    return true
  }

  /// Runs `action` on cancellation (at once if the task was cancelled already).
  func onCancel(_ action: @escaping @Sendable () -> Void) {
    lock.lock()
    guard !isCancelled else {
      lock.unlock()
      action()
      return
    }
    cancelAction = action
    lock.unlock()
  }

  /// Ends the sleep: the deadline was reached.
  func wake() {
    lock.lock()
    let continuation = self.continuation
    self.continuation = nil
    cancelAction = nil
    lock.unlock()
    continuation?.resume()
  }

  /// Ends the sleep with `CancellationError`: the task was cancelled.
  func cancel() {
    lock.lock()
    isCancelled = true
    let continuation = self.continuation
    self.continuation = nil
    let action = cancelAction
    cancelAction = nil
    lock.unlock()
    action?()
    continuation?.resume(throwing: CancellationError())
  }
}

extension TestScheduler {
  /// Runs the work scheduled up to `interval` from now, in time order, then sets the clock
  /// there (`advanceTo(_:)` relative to the current time).
  ///
  /// The time moves in whole ticks of `resolution`: an interval that is not a whole number
  /// of ticks moves the nearest whole number and fails the test, saying so.
  ///
  /// - Parameters:
  ///   - interval: How far to move the time: a whole number of ticks.
  ///   - fileID: The file ID of the call site, where a partial tick is reported. Leave the
  ///     default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public func advance(
    by interval: RxTimeInterval, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let ticks = virtualInterval(interval)
    PartialTick.report(
      of: "TestScheduler", length: AdvanceLength(interval), resolution: converter.resolution,
      moved: ticks, fileID: fileID, filePath: filePath, line: line, column: column)
    advanceTo(converter.offsetVirtualTime(clock, offset: ticks))
  }
}
