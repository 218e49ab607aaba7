import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MapTests: ResourceTestCase {
  func test_map_transformsElementsAndForwardsCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(220, 3), .completed(300), .next(310, 9),
    ])
    // when
    let observer = scheduler.start { source.map { $0 * 10 } }
    // then
    XCTAssertEqual(observer.events, [.next(210, 20), .next(220, 30), .completed(300)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_map_throwingTransformEndsWithError() {
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    let observer = scheduler.start {
      source.map { value -> Int in
        if value == 2 { throw TestError(2) }
        return value
      }
    }
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_map_forwardsTheSourceError_andDisposalStopsDelivery() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    let other = TestScheduler(initialClock: 0)
    let endless = other.createHotObservable([.next(210, 1), .next(320, 2)])
    var calls = 0
    // when
    let failed = scheduler.start { failing.map { $0 + 1 } }
    let disposed = other.start(disposed: 300) {
      endless.map { value -> Int in
        calls += 1
        return value + 1
      }
    }
    // then
    XCTAssertEqual(failed.events, [.next(210, 2), .error(220, TestError(1))])
    XCTAssertEqual(failing.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(disposed.events, [.next(210, 2)])
    XCTAssertEqual(calls, 1, "The transform ran for an element after disposal.")
  }
}
