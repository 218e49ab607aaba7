import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MaterializeTests: ResourceTestCase {
  func test_materialize_turnsEventsIntoElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { source.materialize() }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(210, .next(1)), .next(220, .error(TestError(1))), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_materialize_completion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.completed(250, Int.self)])
    // when
    let observer = scheduler.start { source.materialize() }
    // then
    XCTAssertEqual(observer.events, [.next(250, .completed), .completed(250)])
  }

  func test_dematerialize_restoresEvents() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, Event.next(1)), .next(220, Event<Int>.error(TestError(2))),
      .next(230, Event.next(3)),
    ])
    // when
    let observer = scheduler.start { source.dematerialize() }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(2))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_dematerialize_roundTripsMaterialize() {
    // given
    var events: [Event<Int>] = []
    // when
    let subscription = Observable.of(1, 2).materialize().dematerialize()
      .subscribe { events.append($0) }
    // then
    XCTAssertEqual(events, [.next(1), .next(2), .completed])
    subscription.dispose()
  }
}
