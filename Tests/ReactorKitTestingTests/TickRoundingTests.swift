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

  @Test func schedulerAdvance_wholeTicksOfDecimalResolutions_neverFail() {
    // given: resolutions that are not exact in binary
    for resolution in [0.1, 0.01, 0.001, 0.2, 0.05] {
      let scheduler = TestScheduler(initialClock: 0, resolution: resolution)
      let tick = Int((resolution * 1e9).rounded())
      // when: 1 to 300 whole ticks, in nanoseconds and as milliseconds
      for ticks in 1...300 {
        scheduler.advance(by: .nanoseconds(ticks * tick))
      }
      // then: no issue recorded, and the clock moved exactly
      #expect(scheduler.clock == (1...300).reduce(0, +))
    }
  }

  @Test func schedulerAdvance_partsOfATickAreCaughtAtAnyScale() {
    // given: a million ticks and a half (1e-6 s a tick), and one nanosecond at 1 s a tick
    let fine = TestScheduler(initialClock: 0, resolution: 0.000001)
    let coarse = TestScheduler(initialClock: 0)
    // when / then
    withKnownIssue {
      fine.advance(by: .nanoseconds(1_000_000_000_500))
    } matching: { issue in
      issue.comments.first?.rawValue.hasPrefix(
        "TestScheduler.advance(by: 1000.0000005 seconds) is 1000000000.5 ticks (1 tick = "
          + "0.000001 seconds)") == true
    }
    withKnownIssue {
      coarse.advance(by: .nanoseconds(1_000_000_002))
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        "TestScheduler.advance(by: 1.000000002 seconds) is 1.000000002 ticks (1 tick = 1 "
          + "second) and moved 1 tick: the time moves in whole ticks. Give the scheduler a "
          + "finer resolution, such as TestScheduler(initialClock: 0, resolution: "
          + "0.000000001)."
      ]
    }
    withKnownIssue {
      coarse.advance(by: .nanoseconds(1))
    }
  }

  @Test func schedulerAdvance_suggestsAResolutionThatDividesTheDuration() {
    // given: already a millisecond a tick
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    // when / then: 1.5 ms needs a tenth of a millisecond
    withKnownIssue {
      scheduler.advance(by: .microseconds(1500))
    } matching: { issue in
      issue.comments.first?.rawValue.hasSuffix(
        "such as TestScheduler(initialClock: 0, resolution: 0.0001).") == true
    }
  }

  @Test func clockAdvance_durationsMadeFromDoublesAreWholeTicks() async {
    // given: `.seconds(0.3)` is a few attoseconds short of 0.3 s
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
    let clock = TestClock(scheduler: scheduler)
    // when
    await clock.advance(by: .seconds(0.3))
    await clock.advance(by: .seconds(0.7))
    await clock.advance(by: .seconds(1) + Duration(secondsComponent: 0, attosecondsComponent: 1))
    // then: no issue recorded
    #expect(scheduler.clock == 20)
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
