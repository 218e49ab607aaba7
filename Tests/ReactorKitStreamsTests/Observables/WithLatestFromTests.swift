import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class WithLatestFromTests: ResourceTestCase {
  func test_withLatestFrom_combinesWithLatestAndDropsEarlierElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(210, 1), .next(230, 2), .next(250, 3), .completed(260),
    ])
    let second = scheduler.createHotObservable([
      .next(220, 10), .next(240, 20), .completed(245),
    ])
    // when
    let observer = scheduler.start { first.withLatestFrom(second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(230, 12), .next(250, 23), .completed(260)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 260)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 245)])
  }

  func test_withLatestFrom_withoutSelectorEmitsLatestOfSecond() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
    let second = scheduler.createHotObservable([.next(205, "a"), .next(220, "b")])
    // when
    let observer = scheduler.start { first.withLatestFrom(second) }
    // then
    XCTAssertEqual(observer.events, [.next(210, "a"), .next(230, "b")])
  }

  func test_withLatestFrom_errorOfSecondEndsResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
    let second = scheduler.createHotObservable([.next(205, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { first.withLatestFrom(second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .error(220, TestError(1))])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 220)])
  }

  func test_withLatestFrom_throwingSelectorAndDisposal() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
    let second = scheduler.createHotObservable([.next(205, 1)])
    // when
    let failing = scheduler.start {
      first.withLatestFrom(second) { value, _ -> Int in
        if value == 2 { throw TestError(2) }
        return value
      }
    }
    // then
    XCTAssertEqual(failing.events, [.next(210, 1), .error(230, TestError(2))])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 230)])
  }

  func test_withLatestFrom_disposalEndsBothSubscriptions() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
    let second = scheduler.createHotObservable([.next(205, 1)])
    // when
    let observer = scheduler.start(disposed: 300) { first.withLatestFrom(second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 300)])
  }

  func test_withLatestFrom_concurrentUpdatesStaySerial() {
    // given
    let first = PublishSubject<Int>()
    let second = PublishSubject<Int>()
    let probe = DeliveryProbe()
    let subscription = first.withLatestFrom(second) { $0 + $1 }
      .subscribe(onNext: { _ in
        probe.enter()
        probe.leave()
      })
    second.onNext(0)
    // when
    runConcurrently(threads: 3) { index in
      for step in 0..<1_000 {
        if index == 0 { second.onNext(step) } else { first.onNext(step) }
      }
    }
    // then
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertEqual(probe.count, 2_000)
    subscription.dispose()
  }
}
