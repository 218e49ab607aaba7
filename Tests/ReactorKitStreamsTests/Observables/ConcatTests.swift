import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ConcatTests: ResourceTestCase {
  func test_concat_subscribesSourcesOneAfterAnother() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([.next(10, 1), .completed(30)])
    let second = scheduler.createColdObservable([.next(10, 2), .next(20, 3), .completed(40)])
    // when
    let observer = scheduler.start {
      Observable.concat(first.asObservable(), second.asObservable())
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 1), .next(240, 2), .next(250, 3), .completed(270)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(second.subscriptions, [Subscription(230, 270)])
  }

  func test_concat_errorStopsBeforeLaterSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
    let later = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    // when
    let observer = scheduler.start {
      Observable.concat([failing.asObservable(), later.asObservable()])
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .error(220, TestError(1))])
    XCTAssertEqual(failing.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(later.subscriptions, [])
  }

  func test_concat_disposalEndsCurrentSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let second = scheduler.createColdObservable([.next(10, 2), .next(200, 3)])
    // when
    let observer = scheduler.start(disposed: 300) {
      first.asObservable().concat(second)
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(second.subscriptions, [Subscription(220, 300)])
  }

  func test_concat_emptySequenceCompletesAtOnce() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Observable<Int>.concat([Observable<Int>]()) }
    // then
    XCTAssertEqual(observer.events, [.completed(200)])
  }

  func test_concat_takesSourcesFromTheSequenceLazily() {
    // given
    var made = 0
    let sources = (1...3).lazy.map { value -> Observable<Int> in
      made += 1
      return value == 2 ? Observable.error(TestError(2)) : Observable.just(value)
    }
    var events: [Event<Int>] = []
    // when
    let subscription = Observable.concat(sources).subscribe { events.append($0) }
    // then
    XCTAssertEqual(events, [.next(1), .error(TestError(2))])
    XCTAssertEqual(made, 2)
    subscription.dispose()
  }

  func test_concat_manySynchronousSourcesUseConstantStack() {
    // given
    var count = 0
    var completed = false
    let sources = (0..<20_000).lazy.map { Observable.just($0) }
    // when
    let subscription = Observable.concat(sources)
      .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
    // then
    XCTAssertEqual(count, 20_000)
    XCTAssertTrue(completed)
    subscription.dispose()
  }

  func test_concat_observableOfObservablesWaitsForEachInner() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([.next(10, 1), .completed(50)])
    let inner2 = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    let outer = scheduler.createHotObservable([
      .next(210, inner1), .next(220, inner2), .completed(230),
    ])
    // when
    let observer = scheduler.start { outer.concat() }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1), .next(270, 2), .completed(280)])
    XCTAssertEqual(inner1.subscriptions, [Subscription(210, 260)])
    XCTAssertEqual(inner2.subscriptions, [Subscription(260, 280)])
  }

  func test_concat_instanceAppendsSecondAfterCompletion() {
    // given
    var received: [Int] = []
    // when
    let subscription = Observable.of(1, 2).concat(Observable.just(3))
      .subscribe(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, [1, 2, 3])
    subscription.dispose()
  }
}
