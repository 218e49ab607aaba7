import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class TakeTests: ResourceTestCase {
  func test_take_countCompletesAfterLastElementAndDisposesSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.take(2) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_take_zeroCompletesWithoutSubscribing() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    // when
    let observer = scheduler.start { source.take(0) }
    // then
    XCTAssertEqual(observer.events, [.completed(200)])
    XCTAssertEqual(source.subscriptions, [])
  }

  func test_take_forwardsEarlyError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { source.take(5) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_take_forwardsEarlyCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    // when
    let observer = scheduler.start { source.take(5) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(220)])
  }

  func test_takeUntilPredicate_exclusiveCompletesWithoutEndingElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.take(until: { $0 == 3 }) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_takeUntilPredicate_inclusiveEmitsEndingElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    // when
    let observer = scheduler.start { source.take(until: { $0 == 2 }, behavior: .inclusive) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_takeUntilPredicate_throwingPredicateEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let observer = scheduler.start {
      source.take(until: { value -> Bool in
        if value == 2 { throw TestError(2) }
        return false
      })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
  }

  func test_takeWhile_stopsAtFirstFailingElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 2), .next(220, 4), .next(230, 5), .next(240, 6),
    ])
    // when
    let exclusive = scheduler.start { source.take(while: { $0 % 2 == 0 }) }
    // then
    XCTAssertEqual(exclusive.events, [.next(210, 2), .next(220, 4), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_takeWhile_inclusiveEmitsFirstFailingElement() {
    // given
    var received: [Int] = []
    var completed = false
    // when
    let subscription = Observable.of(2, 4, 5, 6)
      .take(while: { $0 % 2 == 0 }, behavior: .inclusive)
      .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
    // then
    XCTAssertEqual(received, [2, 4, 5])
    XCTAssertTrue(completed)
    subscription.dispose()
  }

  func test_takeUntilOther_completesWhenOtherEmits() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(250, 3)])
    let other = scheduler.createHotObservable([.next(240, "stop"), .next(260, "again")])
    // when
    let observer = scheduler.start { source.take(until: other) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .completed(240)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 240)])
  }

  func test_takeUntilOther_otherCompletingWithoutElementChangesNothing() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(260)])
    let other = scheduler.createHotObservable([.completed(220, Int.self)])
    // when
    let observer = scheduler.start { source.take(until: other) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(250, 2), .completed(260)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
  }

  func test_takeUntilOther_errorOfOtherEndsResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
    let other = scheduler.createHotObservable([.error(220, TestError(3), Int.self)])
    // when
    let observer = scheduler.start { source.take(until: other) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(3))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_takeUntilOther_synchronousOtherLetsNothingThroughAndSkipsSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1)])
    // when
    let observer = scheduler.start { source.take(until: Observable.just(())) }
    // then
    XCTAssertEqual(observer.events, [.completed(200)])
    XCTAssertEqual(source.subscriptions, [])
  }

  func test_takeUntilOther_disposalEndsBoth() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    let other = scheduler.createHotObservable([.next(400, 1)])
    // when
    let observer = scheduler.start(disposed: 300) { source.take(until: other) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 300)])
  }

  func test_takeUntilOther_concurrentStopDeliversCompletionLastAndOnce() {
    for _ in 0..<20 {
      // given
      let source = PublishSubject<Int>()
      let other = PublishSubject<Void>()
      let events = LockedValues<Event<Int>>()
      let subscription = source.take(until: other).subscribe { events.append($0) }
      // when
      runConcurrently(threads: 2) { index in
        if index == 0 {
          for step in 0..<500 { source.onNext(step) }
        } else {
          other.onNext(())
        }
      }
      // then
      let all = events.all
      XCTAssertEqual(all.last, .completed)
      XCTAssertEqual(all.filter(\.isStopEvent).count, 1)
      XCTAssertFalse(source.hasObservers)
      subscription.dispose()
    }
  }

  func test_takeFor_completesAfterTheDuration() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(240, 2), .next(260, 3), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.take(for: .seconds(50), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(240, 2), .completed(250)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
  }

  func test_takeFor_sourceEndingFirstEndsTheResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { source.take(for: .seconds(50), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }
}
