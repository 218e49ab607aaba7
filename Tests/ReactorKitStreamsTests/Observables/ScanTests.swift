import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ScanTests: ResourceTestCase {
  func test_scan_emitsEveryIntermediateAccumulator() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 9), .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ])
    // when
    let observer = scheduler.start { source.scan(10) { $0 + $1 } }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 11), .next(220, 13), .next(230, 16), .completed(240)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
  }

  func test_scanInto_mutatesAccumulatorInPlace() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let observer = scheduler.start { source.scan(into: [Int]()) { $0.append($1) } }
    // then
    XCTAssertEqual(observer.events, [.next(210, [1]), .next(220, [1, 2])])
  }

  func test_scan_throwingAccumulatorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let observer = scheduler.start {
      source.scan(0) { sum, value -> Int in
        if value == 2 { throw TestError(1) }
        return sum + value
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_scan_seedIsFreshForEverySubscription() {
    // given
    let scan = Observable.of(1, 2).scan(into: [Int]()) { $0.append($1) }
    var first: [[Int]] = []
    var second: [[Int]] = []
    // when
    let one = scan.subscribe(onNext: { first.append($0) })
    let two = scan.subscribe(onNext: { second.append($0) })
    // then
    XCTAssertEqual(first, [[1], [1, 2]])
    XCTAssertEqual(second, [[1], [1, 2]])
    one.dispose()
    two.dispose()
  }
}
