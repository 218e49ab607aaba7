import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `TestClock`: sleeps end when the test moves the shared `TestScheduler`, never in real time.
final class TestClockTests: XCTestCase {
  @MainActor
  func testSleepEndsOnlyWhenTheClockIsAdvancedPastItsDeadline() async throws {
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    var woke: [TestTime] = []
    let task = Task { @MainActor in
      try await clock.sleep(for: .seconds(3))
      woke.append(scheduler.clock)
    }

    await clock.advance()
    XCTAssertEqual(clock.sleepCount, 1)
    await clock.advance(by: .seconds(2))
    XCTAssertEqual(woke, [])
    XCTAssertEqual(clock.sleepCount, 1)

    await clock.advance(by: .seconds(1))
    try await task.value
    XCTAssertEqual(woke, [3])
    XCTAssertEqual(clock.sleepCount, 0)
  }

  @MainActor
  func testALoopThatSleepsAgainIsWokenAtEachDeadline() async throws {
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    var ticks: [TestTime] = []
    let task = Task { @MainActor in
      for _ in 0..<3 {
        try await clock.sleep(for: .seconds(2))
        ticks.append(scheduler.clock)
      }
    }

    await clock.advance(by: .seconds(10))
    try await task.value
    XCTAssertEqual(ticks, [2, 4, 6])
    XCTAssertEqual(scheduler.clock, 10)
  }

  @MainActor
  func testCancellingASleepingTaskThrowsCancellationErrorAndForgetsTheSleep() async {
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let task = Task { @MainActor in try await clock.sleep(for: .seconds(60)) }
    await clock.advance()
    XCTAssertEqual(clock.sleepCount, 1)

    task.cancel()
    do {
      try await task.value
      XCTFail("a cancelled sleep must throw")
    } catch {
      XCTAssertTrue(error is CancellationError, "\(error)")
    }
    XCTAssertEqual(clock.sleepCount, 0)
  }

  func testADeadlineInThePastReturnsAtOnce() async throws {
    let scheduler = TestScheduler(initialClock: 5)
    let clock = TestClock(scheduler: scheduler)
    XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(5)))

    try await clock.sleep(until: TestClock.Instant(offset: .seconds(4)))
    XCTAssertEqual(scheduler.clock, 5)
  }

  func testInstantArithmetic() {
    let start = TestClock.Instant(offset: .seconds(1))
    let later = start.advanced(by: .milliseconds(500))
    XCTAssertEqual(start.duration(to: later), .milliseconds(500))
    XCTAssertLessThan(start, later)
  }
}
