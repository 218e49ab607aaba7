import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class AmbTests: ResourceTestCase {
  func test_amb_followsFirstToEmitAndDisposesOther() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let slow = scheduler.createHotObservable([.next(230, 1), .completed(300)])
    let fast = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(250)])
    // when
    let observer = scheduler.start { slow.asObservable().amb(fast) }
    // then
    XCTAssertEqual(observer.events, [.next(220, 2), .next(240, 3), .completed(250)])
    XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(fast.subscriptions, [Subscription(200, 250)])
  }

  func test_amb_terminalEventAlsoWins() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createHotObservable([.error(210, TestError(1), Int.self)])
    let later = scheduler.createHotObservable([.next(220, 2)])
    // when
    let observer = scheduler.start {
      Observable.amb([failing.asObservable(), later.asObservable()])
    }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(1))])
    XCTAssertEqual(later.subscriptions, [Subscription(200, 210)])
  }

  func test_amb_sequenceOfThreeAndSynchronousWinner() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let cold = scheduler.createColdObservable([.next(10, 1)])
    // when
    let observer = scheduler.start {
      Observable.amb([Observable.just(7), cold.asObservable(), Observable.never()])
    }
    // then
    XCTAssertEqual(observer.events, [.next(200, 7), .completed(200)])
    XCTAssertEqual(cold.subscriptions, [])
  }
}
