import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class IfEmptyTests: ResourceTestCase {
  func test_ifEmptyDefault_emptySourceEmitsDefaultThenCompletes() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(420, Int.self)])
    // when
    let observer = scheduler.start { source.ifEmpty(default: 7) }
    // then
    XCTAssertEqual(observer.events, [.next(420, 7), .completed(420)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 420)])
  }

  func test_ifEmptyDefault_nonEmptySourcePassesThrough() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(420)])
    // when
    let observer = scheduler.start { source.ifEmpty(default: 7) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(420)])
  }

  func test_ifEmptyDefault_errorPassesWithoutDefault() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.error(420, TestError(1), Int.self)])
    // when
    let observer = scheduler.start { source.ifEmpty(default: 7) }
    // then
    XCTAssertEqual(observer.events, [.error(420, TestError(1))])
  }

  func test_ifEmptySwitchTo_emptySourceSwitchesToOther() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(230, Int.self)])
    let other = scheduler.createColdObservable([.next(10, 0), .completed(20)])
    // when
    let observer = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
    // then
    XCTAssertEqual(observer.events, [.next(240, 0), .completed(250)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(other.subscriptions, [Subscription(230, 250)])
  }

  func test_ifEmptySwitchTo_nonEmptySourceNeverSubscribesOther() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    let other = scheduler.createColdObservable([.next(10, 0), .completed(20)])
    // when
    let observer = scheduler.start { source.ifEmpty(switchTo: other.asObservable()) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(230)])
    XCTAssertEqual(other.subscriptions, [])
  }

  func test_ifEmptySwitchTo_disposalDisposesOther() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(230, Int.self)])
    let other = scheduler.createColdObservable([.next(100, 0)])
    // when
    let observer = scheduler.start(disposed: 300) {
      source.ifEmpty(switchTo: other.asObservable())
    }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(other.subscriptions, [Subscription(230, 300)])
  }
}
