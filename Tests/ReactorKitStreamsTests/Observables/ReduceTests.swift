import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ReduceTests: ResourceTestCase {
  func test_reduce_emitsFinalAccumulatorOnCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ])
    // when
    let observer = scheduler.start { source.reduce(10) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(240, 16), .completed(240)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
  }

  func test_reduce_mapResultAndEmptySource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let empty = scheduler.createHotObservable([.completed(250, Int.self)])
    // when
    let observer = scheduler.start {
      empty.reduce(1, accumulator: { $0 * $1 }, mapResult: { "result \($0)" })
    }
    // then
    XCTAssertEqual(observer.events, [.next(250, "result 1"), .completed(250)])
  }

  func test_reduce_sourceErrorIsForwarded() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { failing.reduce(0, accumulator: +) }
    // then
    XCTAssertEqual(observer.events, [.error(220, TestError(1))])
  }

  func test_reduce_throwingAccumulatorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    // when
    let observer = scheduler.start { source.reduce(0) { _, _ -> Int in throw TestError(2) } }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 210)])
  }

  func test_reduce_throwingMapResultEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    // when
    let observer = scheduler.start {
      source.reduce(0, accumulator: +, mapResult: { _ -> Int in throw TestError(3) })
    }
    // then
    XCTAssertEqual(observer.events, [.error(230, TestError(3))])
  }

  func test_reduceInto_andToArray() {
    // given
    var counts: [[Int: Int]] = []
    var arrays: [[Int]] = []
    // when
    let first = Observable.of(1, 2, 1).reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
      .subscribe(onNext: { counts.append($0) })
    let second = Observable.of(3, 4).toArray().subscribe(onNext: { arrays.append($0) })
    // then
    XCTAssertEqual(counts, [[1: 2, 2: 1]])
    XCTAssertEqual(arrays, [[3, 4]])
    first.dispose()
    second.dispose()
  }

  func test_toArray_emptySourceEmitsEmptyArray() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(250, Int.self)])
    // when
    let observer = scheduler.start { source.toArray() }
    // then
    XCTAssertEqual(observer.events, [.next(250, []), .completed(250)])
  }
}
