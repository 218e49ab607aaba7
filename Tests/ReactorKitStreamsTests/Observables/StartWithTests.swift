import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class StartWithTests: ResourceTestCase {
  func test_startWith_emitsElementsBeforeSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 3), .completed(220)])
    // when
    let observer = scheduler.start { source.asObservable().startWith(1, 2) }
    // then
    XCTAssertEqual(
      observer.events, [.next(200, 1), .next(200, 2), .next(210, 3), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }
}
