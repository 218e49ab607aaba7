import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ThrottleTests: ResourceTestCase {
  private func makeSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>>?)
    -> TestableObservable<Int>
  {
    var events: [Recorded<Event<Int>>] = [
      .next(150, 1), .next(210, 2), .next(250, 3), .next(310, 4), .next(350, 5), .next(410, 6),
      .next(450, 7),
    ]
    if let end { events.append(end) }
    return scheduler.createHotObservable(events)
  }

  func test_throttle_emitsFirstAtOnceAndLatestAtWindowEnd() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .completed(500))
    // when
    let observer = scheduler.start { source.throttle(.seconds(200), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(610)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 500)])
  }

  func test_throttle_completionAfterWindowIsForwardedAtOnce() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .completed(900))
    // when
    let observer = scheduler.start { source.throttle(.seconds(200), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 2), .next(410, 6), .next(610, 7), .completed(900)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 900)])
  }

  func test_throttle_errorIsForwardedAtOnceAndDropsTheWaitingElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 2), .next(250, 3), .error(300, TestError(1)),
    ])
    // when
    let observer = scheduler.start { source.throttle(.seconds(200), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .error(300, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_throttle_withoutEndKeepsThrottling() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: nil)
    // when
    let observer = scheduler.start { source.throttle(.seconds(200), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .next(410, 6), .next(610, 7)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 1000)])
  }

  func test_throttle_notLatestDropsElementsInsideTheWindow() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .completed(500))
    // when
    let observer = scheduler.start {
      source.throttle(.seconds(200), latest: false, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .next(410, 6), .completed(500)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 500)])
  }

  func test_throttle_emptySourceCompletesAtOnce() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(150, 0), .completed(500)])
    // when
    let observer = scheduler.start { source.throttle(.seconds(200), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.completed(500)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 500)])
  }

  func test_throttle_disposalCancelsTheWaitingElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: nil)
    // when
    let observer = scheduler.start(disposed: 400) {
      source.throttle(.seconds(200), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
  }

  func test_throttle_windowRestartsWhenTheWaitingElementIsEmitted() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(240, 3), .next(250, 4),
    ])
    // when
    let observer = scheduler.start { source.throttle(.seconds(30), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(240, 3), .next(270, 4)])
  }
}
