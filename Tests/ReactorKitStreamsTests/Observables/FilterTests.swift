import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class FilterTests: ResourceTestCase {
  func test_filter_disposalStopsDelivery() {
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 4), .next(400, 6),
    ])
    let observer = scheduler.start(disposed: 300) { source.filter { $0 % 2 == 0 } }
    XCTAssertEqual(observer.events, [.next(220, 2), .next(230, 4)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_filter_throwingPredicateEndsWithError_andCompletionIsForwarded() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let throwing = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
    let other = TestScheduler(initialClock: 0)
    let completing = other.createHotObservable([.next(210, 1), .completed(250)])
    // when
    let failed = scheduler.start {
      throwing.filter { value in
        if value == 2 { throw TestError(2) }
        return true
      }
    }
    let completed = other.start { completing.filter { _ in false } }
    // then
    XCTAssertEqual(failed.events, [.next(210, 1), .error(220, TestError(2))])
    XCTAssertEqual(throwing.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(completed.events, [.completed(250)])
  }
}
