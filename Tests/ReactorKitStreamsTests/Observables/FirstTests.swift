import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class FirstTests: ResourceTestCase {
  func test_first_emitsFirstElementAndDisposesSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(250),
    ])
    // when
    let observer = scheduler.start { source.first() }
    // then
    XCTAssertEqual(observer.events, [.next(210, 2), .completed(210)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])
  }

  func test_first_emptySourceEmitsNil() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(250, Int.self)])
    // when
    let observer = scheduler.start { source.first() }
    // then
    XCTAssertEqual(observer.events, [.next(250, nil), .completed(250)])
  }

  func test_first_errorFailsSingle() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.error(210, TestError(1), Int.self)])
    // when
    let observer = scheduler.start { source.first() }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(1))])
  }
}
