import ReactorKitStreams
import ReactorKitTesting
import Testing

/// `advance(by:)` of a `TestScheduler` and a `TestClock` moves whole ticks; a duration that
/// is not a whole number of ticks fails the test with what happened, instead of silently
/// moving the nearest whole number (0.3 ticks moved nothing, 0.5 moved a whole tick).
@Suite struct TickRoundingTests {
  @Test func schedulerAdvance_partOfATick_failsAndSaysWhatMoved() {
    // given: one tick is one second
    let scheduler = TestScheduler(initialClock: 0)
    // when / then
    withKnownIssue {
      scheduler.advance(by: .milliseconds(300))
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "TestScheduler.advance(by: 0.3 seconds) is 0.3 ticks (1 tick = 1 second) and moved 0 "
          + "ticks: the time moves in whole ticks. Give the scheduler a finer resolution, "
          + "such as TestScheduler(initialClock: 0, resolution: 0.001)."
      ]
    }
    #expect(scheduler.clock == 0)
    withKnownIssue {
      scheduler.advance(by: .milliseconds(1500))
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix(
        "TestScheduler.advance(by: 1.5 seconds) is 1.5 ticks (1 tick = 1 second) and moved 2 "
          + "ticks") == true
    }
    #expect(scheduler.clock == 2)
  }

  @Test func schedulerAdvance_wholeTicksPass() {
    // given
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    // when: 1 ms and 0.1 s are whole ticks, though not exact in binary
    scheduler.advance(by: .milliseconds(1))
    scheduler.advance(by: .milliseconds(100))
    scheduler.advance(by: .seconds(2))
    scheduler.advance(by: .microseconds(3000))
    // then: no issue recorded
    #expect(scheduler.clock == 2104)
  }

  @Test func clockAdvance_partOfATick_failsAndSaysWhatMoved() async {
    // given: one tick is a tenth of a second
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
    let clock = TestClock(scheduler: scheduler)
    // when / then
    await withKnownIssue {
      await clock.advance(by: .milliseconds(250))
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "TestClock.advance(by: 0.25 seconds) is 2.5 ticks (1 tick = 0.1 seconds) and moved 3 "
          + "ticks: the time moves in whole ticks. Give the scheduler a finer resolution, "
          + "such as TestScheduler(initialClock: 0, resolution: 0.001)."
      ]
    }
    #expect(scheduler.clock == 3)
    await clock.advance(by: .milliseconds(200))
    #expect(scheduler.clock == 5)
  }
}
