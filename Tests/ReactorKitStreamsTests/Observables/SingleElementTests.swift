import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class SingleElementTests: ResourceTestCase {
  func test_single_forwardsElementAtOnceAndCompletesWithSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 2), .completed(250)])
    // when
    let observer = scheduler.start { source.single() }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .completed(250)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
  }

  func test_single_secondElementFailsAtOnce() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
    // when
    let observer = scheduler.start { source.single() }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 2), .error(220, RxError.moreThanOneElement)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_single_emptyFailsWithNoElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(250, Int.self)])
    // when
    let observer = scheduler.start { source.single() }
    // then
    XCTAssertEqual(observer.events, [.error(250, RxError.noElements)])
  }

  func test_singlePredicate_skipsOtherElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 4), .next(230, 5), .completed(250),
    ])
    // when
    let observer = scheduler.start { source.single { $0 % 2 == 0 } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 4), .completed(250)])
  }

  func test_singlePredicate_secondMatchFailsAndThrowingPredicateFails() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
    ])
    let other = TestScheduler(initialClock: 0)
    let throwing = other.createHotObservable([.next(210, 2), .next(220, 3)])
    // when
    let observer = scheduler.start { source.single { $0 % 2 == 0 } }
    let failed = other.start {
      throwing.single { value in
        if value == 3 { throw TestError(1) }
        return true
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .error(230, RxError.moreThanOneElement)])
    XCTAssertEqual(failed.events, [.next(210, 2), .error(220, TestError(1))])
    XCTAssertEqual(throwing.subscriptions, [Subscription(200, 220)])
  }
}
