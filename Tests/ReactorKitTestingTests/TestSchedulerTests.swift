import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// The virtual clock's own rules: order of work, the simulated processing delay, hot and cold
/// observables, `start`'s creation/subscription/disposal times, and the time converter.
final class TestSchedulerTests: XCTestCase {
  func testWorkRunsInTimeOrderAndFirstScheduledFirstAtEqualTimes() {
    let scheduler = TestScheduler(initialClock: 0)
    var log: [String] = []
    scheduler.scheduleAt(30) { log.append("c@\(scheduler.clock)") }
    scheduler.scheduleAt(10) { log.append("a@\(scheduler.clock)") }
    scheduler.scheduleAt(30) { log.append("d@\(scheduler.clock)") }
    scheduler.scheduleAt(20) { log.append("b@\(scheduler.clock)") }

    scheduler.start()

    XCTAssertEqual(log, ["a@10", "b@20", "c@30", "d@30"])
  }

  func testAdvanceToRunsOnlyTheWorkDueAndSetsTheClock() {
    let scheduler = TestScheduler(initialClock: 0)
    var ran: [Int] = []
    scheduler.scheduleAt(5) { ran.append(5) }
    scheduler.scheduleAt(15) { ran.append(15) }

    scheduler.advanceTo(10)
    XCTAssertEqual(ran, [5])
    XCTAssertEqual(scheduler.clock, 10)

    scheduler.advanceTo(15)
    XCTAssertEqual(ran, [5, 15])
  }

  func testWorkScheduledNowRunsOneUnitLaterWithTheSimulatedProcessingDelay() {
    let delayed = TestScheduler(initialClock: 0)
    let observer = delayed.createObserver(Int.self)
    delayed.scheduleAt(10) { _ = Observable.just(1, scheduler: delayed).subscribe(observer) }
    delayed.start()
    XCTAssertEqual(observer.events, [.next(11, 1), .completed(12)])

    let exact = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
    let exactObserver = exact.createObserver(Int.self)
    exact.scheduleAt(10) { _ = Observable.just(1, scheduler: exact).subscribe(exactObserver) }
    exact.start()
    XCTAssertEqual(exactObserver.events, [.next(10, 1), .completed(10)])
  }

  func testStartUsesCreationSubscriptionAndDisposalTimes() {
    let scheduler = TestScheduler(initialClock: 0)
    var createdAt: TestTime?
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(250, 2), .next(950, 3), .next(1_050, 4),
    ])

    let result = scheduler.start { () -> TestableObservable<Int> in
      createdAt = scheduler.clock
      return source
    }

    XCTAssertEqual(createdAt, 100)
    XCTAssertEqual(result.events, [.next(250, 2), .next(950, 3)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 1_000)])
  }

  func testColdObservablePlaysItsEventsRelativeToEachSubscription() {
    let scheduler = TestScheduler(initialClock: 0)
    let cold = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
    let first = scheduler.createObserver(String.self)
    let second = scheduler.createObserver(String.self)
    scheduler.scheduleAt(100) { _ = cold.subscribe(first) }
    scheduler.scheduleAt(300) { _ = cold.subscribe(second) }

    scheduler.start()

    XCTAssertEqual(first.events, [.next(110, "a"), .completed(120)])
    XCTAssertEqual(second.events, [.next(310, "a"), .completed(320)])
    // A terminal event does not end the recorded subscription; only disposal does (RxTest).
    XCTAssertEqual(cold.subscriptions, [Subscription(100), Subscription(300)])
  }

  func testHotObservableSendsOnlyWhatHappensWhileSubscribed() {
    let scheduler = TestScheduler(initialClock: 0)
    let hot = scheduler.createHotObservable([.next(50, 1), .next(150, 2), .next(250, 3)])
    let observer = scheduler.createObserver(Int.self)
    var subscription: Disposable?
    scheduler.scheduleAt(100) { subscription = hot.subscribe(observer) }
    scheduler.scheduleAt(200) { subscription?.dispose() }

    scheduler.start()

    XCTAssertEqual(observer.events, [.next(150, 2)])
    XCTAssertEqual(hot.subscriptions, [Subscription(100, 200)])
  }

  func testResolutionConvertsRealIntervalsToWholeUnits() {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    XCTAssertEqual(scheduler.resolution, 0.001)
    XCTAssertEqual(scheduler.virtualInterval(.milliseconds(250)), 250)
    XCTAssertEqual(scheduler.virtualInterval(.seconds(2)), 2_000)

    scheduler.advance(by: .milliseconds(40))
    XCTAssertEqual(scheduler.clock, 40)
  }

  func testConverterSaturatesInsteadOfOverflowing() {
    let converter = TestSchedulerVirtualTimeConverter(resolution: 1)
    XCTAssertEqual(converter.offsetVirtualTime(.max - 1, offset: 10), .max)
    XCTAssertEqual(converter.convertToVirtualTimeInterval(TimeInterval.infinity), .max)
    XCTAssertEqual(converter.convertToVirtualTimeInterval(-TimeInterval.infinity), .min)
    XCTAssertEqual(converter.compareVirtualTime(1, 2), .lessThan)
    XCTAssertEqual(converter.compareVirtualTime(2, 2), .equal)
    XCTAssertEqual(converter.compareVirtualTime(3, 2), .greaterThan)
  }

  func testTimedOperatorsRunOnTheVirtualClock() {
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(212, 2), .next(230, 3), .completed(300),
    ])

    let result = scheduler.start {
      source.debounce(.seconds(5), scheduler: scheduler)
    }

    XCTAssertEqual(result.events, [.next(217, 2), .next(235, 3), .completed(300)])
  }
}
