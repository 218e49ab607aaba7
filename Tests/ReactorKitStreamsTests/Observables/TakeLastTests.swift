import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class TakeLastTests: ResourceTestCase {
  func test_takeLast_emitsTrailingElementsOnCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.takeLast(2) }
    // then
    XCTAssertEqual(observer.events, [.next(300, 3), .next(300, 4), .completed(300)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_takeLast_fewerElementsThanCountAndZeroCount() {
    // given
    var received: [Int] = []
    var none: [Int] = []
    // when
    let first = Observable.of(1, 2).takeLast(5).subscribe(onNext: { received.append($0) })
    let second = Observable.of(1, 2).takeLast(0).subscribe(onNext: { none.append($0) })
    // then
    XCTAssertEqual(received, [1, 2])
    XCTAssertEqual(none, [])
    first.dispose()
    second.dispose()
  }

  func test_takeLast_errorDropsBuffer() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { source.takeLast(2) }
    // then
    XCTAssertEqual(observer.events, [.error(220, TestError(1))])
  }
}
