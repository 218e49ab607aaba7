import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ElementAtTests: ResourceTestCase {
  func test_elementAt_emitsElementAtIndexAndCompletes() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 10), .next(220, 20), .next(230, 30), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.element(at: 1) }
    // then
    XCTAssertEqual(observer.events, [.next(220, 20), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_elementAt_tooShortSourceFailsWithArgumentOutOfRange() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 10), .completed(220)])
    // when
    let observer = scheduler.start { source.element(at: 3) }
    // then
    XCTAssertEqual(observer.events, [.error(220, RxError.argumentOutOfRange)])
  }
}
