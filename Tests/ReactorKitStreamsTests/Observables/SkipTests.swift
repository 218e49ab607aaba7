import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class SkipTests: ResourceTestCase {
  func test_skip_dropsFirstElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ])
    // when
    let observer = scheduler.start { source.skip(2) }
    // then
    XCTAssertEqual(observer.events, [.next(230, 3), .completed(240)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
  }

  func test_skip_errorAndDisposal() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { failing.skip(5) }
    // then
    XCTAssertEqual(observer.events, [.error(220, TestError(1))])
    XCTAssertEqual(failing.subscriptions, [Subscription(200, 220)])
  }

  func test_skipWhile_forwardsFromFirstFailingElementOn() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
    ])
    var calls = 0
    // when
    let observer = scheduler.start {
      source.skip(while: { value in
        calls += 1
        return value % 2 == 1
      })
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, 4), .next(240, 5), .completed(250)])
    XCTAssertEqual(calls, 3)
  }

  func test_skipWhile_throwingPredicateEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let observer = scheduler.start {
      source.skip(while: { _ -> Bool in throw TestError(2) })
    }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])
  }

  func test_skipUntil_forwardsAfterOtherEmits() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(240, 3), .completed(250),
    ])
    let other = scheduler.createHotObservable([.next(230, "go"), .completed(235)])
    // when
    let observer = scheduler.start { source.skip(until: other) }
    // then
    XCTAssertEqual(observer.events, [.next(240, 3), .completed(250)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 230)])
  }

  func test_skipUntil_completionBeforeOtherEmitsEndsSilently() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    let other = scheduler.createHotObservable([.completed(225, Int.self)])
    // when
    let observer = scheduler.start { source.skip(until: other) }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
  }

  func test_skipUntil_errorOfOtherEndsResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
    let other = scheduler.createHotObservable([.error(225, TestError(3), Int.self)])
    // when
    let observer = scheduler.start { source.skip(until: other) }
    // then
    XCTAssertEqual(observer.events, [.error(225, TestError(3))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 225)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 225)])
  }

  func test_skipUntil_sourceErrorDisposesOther() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(4))])
    let other = scheduler.createHotObservable([.next(230, 1)])
    // when
    let observer = scheduler.start { source.skip(until: other) }
    // then
    XCTAssertEqual(observer.events, [.error(220, TestError(4))])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 220)])
  }

  func test_skipDuration_dropsTheElementsOfTheDuration() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(240, 2), .next(260, 3), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.skip(.seconds(50), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(260, 3), .completed(300)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_skipDuration_forwardsCompletionAndErrorsBeforeTheDuration() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let other = TestScheduler(initialClock: 0)
    let completes = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let fails = other.createHotObservable([.error(230, TestError(1), Int.self)])
    // when
    let completed = scheduler.start { completes.skip(.seconds(50), scheduler: scheduler) }
    let failed = other.start { fails.skip(.seconds(50), scheduler: other) }
    // then
    XCTAssertEqual(completed.events, [.completed(220)])
    XCTAssertEqual(failed.events, [.error(230, TestError(1))])
  }

  func test_skipDuration_disposalEndsTheSubscription() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(260, 1), .next(280, 2)])
    // when
    let observer = scheduler.start(disposed: 270) {
      source.skip(.seconds(50), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(260, 1)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 270)])
  }

  func test_skipUntil_gateOpenedFromAnotherThreadPassesALaterSuffixInOrder() {
    for _ in 0..<StressConfiguration.iterations(5) {
      // given
      let source = PublishSubject<Int>()
      let other = PublishSubject<Void>()
      let probe = DeliveryProbe()
      let received = LockedValues<Int>()
      let subscription = source.skip(until: other).subscribe(onNext: { value in
        probe.enter()
        received.append(value)
        probe.leave()
      })
      // when
      runConcurrently(threads: 2) { index in
        if index == 0 {
          for step in 0..<500 {
            source.onNext(step)
            if step % 100 == 0 { sched_yield() }
          }
        } else {
          other.onNext(())
        }
      }
      source.onNext(500)
      // then
      let all = received.all
      XCTAssertEqual(probe.overlaps, 0)
      XCTAssertEqual(all.last, 500)
      XCTAssertEqual(all, Array((all.first ?? 500)...500), "not a contiguous suffix")
      subscription.dispose()
    }
  }
}
