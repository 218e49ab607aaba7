import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DistinctUntilChangedTests: ResourceTestCase {
  func test_distinctUntilChanged_dropsConsecutiveDuplicates() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 1), .next(230, 2), .next(240, 1), .next(250, 1),
      .completed(260),
    ])
    // when
    let observer = scheduler.start { source.distinctUntilChanged() }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 1), .next(230, 2), .next(240, 1), .completed(260)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 260)])
  }

  func test_distinctUntilChanged_byKeySelector() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, "apple"), .next(220, "avocado"), .next(230, "banana"),
    ])
    // when
    let observer = scheduler.start { source.distinctUntilChanged { $0.first } }
    // then
    XCTAssertEqual(observer.events, [.next(210, "apple"), .next(230, "banana")])
  }

  func test_distinctUntilChanged_byKeyPath() {
    // given
    struct Item: Equatable {
      let id: Int
      let name: String
    }
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, Item(id: 1, name: "a")), .next(220, Item(id: 1, name: "b")),
      .next(230, Item(id: 2, name: "b")),
    ])
    // when
    let observer = scheduler.start { source.distinctUntilChanged(at: \.id) }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, Item(id: 1, name: "a")), .next(230, Item(id: 2, name: "b"))])
  }

  func test_distinctUntilChanged_byComparer() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 5), .next(240, 6),
    ])
    // when
    let observer = scheduler.start { source.distinctUntilChanged { abs($0 - $1) < 2 } }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 5)])
  }

  func test_distinctUntilChanged_keySelectorWithComparer() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, -1), .next(220, 1), .next(230, 2)])
    // when
    let observer = scheduler.start {
      source.distinctUntilChanged({ abs($0) }, comparer: { $0 == $1 })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, -1), .next(230, 2)])
  }

  func test_distinctUntilChanged_throwingComparerAndKeySelectorEndWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    // when
    let comparerFails = scheduler.start {
      source.distinctUntilChanged { _, _ -> Bool in throw TestError(1) }
    }
    // then
    XCTAssertEqual(comparerFails.events, [.next(210, 1), .error(220, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_distinctUntilChanged_throwingKeySelectorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    // when
    let observer = scheduler.start {
      source.distinctUntilChanged { _ -> Int in throw TestError(2) }
    }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(2))])
  }
}
