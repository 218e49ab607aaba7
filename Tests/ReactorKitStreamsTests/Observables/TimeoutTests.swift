import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class TimeoutTests: ResourceTestCase {
  func test_timeout_elementsInTimePassThrough() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(230, 3), .next(260, 4), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.timeout(.seconds(50), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 2), .next(230, 3), .next(260, 4), .completed(300)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_timeout_firstElementLateFailsWithTimeout() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(150, 1), .next(260, 2)])
    // when
    let observer = scheduler.start { source.timeout(.seconds(50), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.error(250, RxError.timeout)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
  }

  func test_timeout_gapBetweenElementsSwitchesToOther() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(240, 2), .next(320, 3), .completed(400),
    ])
    let other = scheduler.createColdObservable([.next(10, 100), .completed(20)])
    // when
    let observer = scheduler.start {
      source.timeout(.seconds(50), other: other, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 1), .next(240, 2), .next(300, 100), .completed(310)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 290)])
    XCTAssertEqual(other.subscriptions, [Subscription(290, 310)])
  }

  func test_timeout_errorBeforeTimeoutIsForwarded() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(2))])
    let other = scheduler.createColdObservable([.next(10, 100)])
    // when
    let observer = scheduler.start {
      source.timeout(.seconds(50), other: other, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(230, TestError(2))])
    XCTAssertEqual(other.subscriptions, [])
  }

  func test_timeout_disposalStopsTheTimer() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    let other = scheduler.createColdObservable([.next(10, 100)])
    // when
    let observer = scheduler.start(disposed: 240) {
      source.timeout(.seconds(50), other: other, scheduler: scheduler)
    }
    scheduler.advanceTo(2000)
    // then
    XCTAssertEqual(observer.events, [.next(210, 1)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
    XCTAssertEqual(other.subscriptions, [])
  }

  func test_timeout_otherIsDisposedWithTheSubscription() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([Recorded<Event<Int>>]())
    let other = scheduler.createColdObservable([.next(100, 100)])
    // when
    let observer = scheduler.start(disposed: 300) {
      source.timeout(.seconds(50), other: other, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
    XCTAssertEqual(other.subscriptions, [Subscription(250, 300)])
  }
}
