import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class FlatMapTests: ResourceTestCase {
  func test_flatMap_mergesInnerSequencesAndCompletesAfterAll() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([
      .next(10, 11), .next(120, 12), .completed(130),
    ])
    let inner2 = scheduler.createColdObservable([.next(5, 21), .next(30, 22), .completed(40)])
    let outer = scheduler.createHotObservable([
      .next(150, 0), .next(300, 1), .next(400, 2), .completed(500),
    ])
    // when
    let observer = scheduler.start {
      outer.flatMap { $0 == 1 ? inner1 : inner2 }
    }
    // then
    XCTAssertEqual(
      observer.events,
      [
        .next(310, 11), .next(405, 21), .next(420, 12), .next(430, 22), .completed(500),
      ])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 500)])
    XCTAssertEqual(inner1.subscriptions, [Subscription(300, 430)])
    XCTAssertEqual(inner2.subscriptions, [Subscription(400, 440)])
  }

  func test_flatMap_waitsForRunningInnerAfterOuterCompleted() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(50, 1), .completed(100)])
    let outer = scheduler.createHotObservable([.next(210, 0), .completed(220)])
    // when
    let observer = scheduler.start { outer.flatMap { _ in inner } }
    // then
    XCTAssertEqual(observer.events, [.next(260, 1), .completed(310)])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 310)])
  }

  func test_flatMap_innerErrorDisposesOuterAndOtherInners() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let quiet = scheduler.createColdObservable([.next(100, 1)])
    let failing = scheduler.createColdObservable([.next(10, 2), .error(20, TestError(1))])
    let outer = scheduler.createHotObservable([.next(210, 0), .next(220, 1)])
    // when
    let observer = scheduler.start { outer.flatMap { $0 == 0 ? quiet : failing } }
    // then
    XCTAssertEqual(observer.events, [.next(230, 2), .error(240, TestError(1))])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 240)])
    XCTAssertEqual(quiet.subscriptions, [Subscription(210, 240)])
    XCTAssertEqual(failing.subscriptions, [Subscription(220, 240)])
  }

  func test_flatMap_outerErrorDisposesInners() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(10, 1), .next(100, 2)])
    let outer = scheduler.createHotObservable([.next(210, 0), .error(250, TestError(2))])
    // when
    let observer = scheduler.start { outer.flatMap { _ in inner } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1), .error(250, TestError(2))])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 250)])
  }

  func test_flatMap_throwingSelectorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(5, 1)])
    let outer = scheduler.createHotObservable([.next(210, 0), .next(220, 1), .next(230, 2)])
    // when
    let observer = scheduler.start {
      outer.flatMap { value -> TestableObservable<Int> in
        if value == 1 { throw TestError(3) }
        return inner
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(215, 1), .error(220, TestError(3))])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 220)])
  }

  func test_flatMap_disposalEndsOuterAndInnerSubscriptions() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(10, 1), .next(200, 2)])
    let outer = scheduler.createHotObservable([.next(210, 0), .next(500, 1)])
    // when
    let observer = scheduler.start(disposed: 300) { outer.flatMap { _ in inner } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1)])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 300)])
  }

  func test_flatMap_synchronousInnersDeliverInOrder() {
    // given
    var received: [Int] = []
    var completed = false
    // when
    let subscription = Observable.of(1, 2, 3)
      .flatMap { Observable.of($0, $0 * 10) }
      .subscribe(onNext: { received.append($0) }, onCompleted: { completed = true })
    // then
    XCTAssertEqual(received.sorted(), [1, 2, 3, 10, 20, 30])
    XCTAssertTrue(completed)
    subscription.dispose()
  }

  func test_flatMap_justInnersAreSynchronous() {
    // given
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    let subscription = subject.flatMap { Observable.just($0 + 1) }
      .subscribe(onNext: { received.append($0) })
    // when
    subject.onNext(1)
    // then
    XCTAssertEqual(received, [2])
    subscription.dispose()
  }

  func test_flatMap_reentrantOuterElementIsQueuedNotNested() {
    // given
    let subject = PublishSubject<Int>()
    var log: [String] = []
    let subscription = subject.flatMap { Observable.just($0) }
      .subscribe(onNext: { value in
        log.append("start \(value)")
        if value < 3 { subject.onNext(value + 1) }
        log.append("end \(value)")
      })
    // when
    subject.onNext(1)
    // then
    XCTAssertEqual(log, ["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"])
    subscription.dispose()
  }

  func test_flatMapLatest_switchesToNewestInner() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([
      .next(10, 11), .next(60, 12), .completed(200),
    ])
    let inner2 = scheduler.createColdObservable([.next(10, 21), .next(20, 22), .completed(30)])
    let outer = scheduler.createHotObservable([
      .next(210, 1), .next(250, 2), .completed(260),
    ])
    // when
    let observer = scheduler.start { outer.flatMapLatest { $0 == 1 ? inner1 : inner2 } }
    // then
    XCTAssertEqual(
      observer.events, [.next(220, 11), .next(260, 21), .next(270, 22), .completed(280)])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 260)])
    XCTAssertEqual(inner1.subscriptions, [Subscription(210, 250)])
    XCTAssertEqual(inner2.subscriptions, [Subscription(250, 280)])
  }

  func test_flatMapLatest_completesWhenOuterCompletesAfterInner() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let outer = scheduler.createHotObservable([.next(210, 0), .completed(300)])
    // when
    let observer = scheduler.start { outer.flatMapLatest { _ in inner } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1), .completed(300)])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 230)])
  }

  func test_flatMapLatest_innerErrorEndsSequence() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(4))])
    let outer = scheduler.createHotObservable([.next(210, 0), .next(400, 1)])
    // when
    let observer = scheduler.start { outer.flatMapLatest { _ in inner } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 1), .error(230, TestError(4))])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 230)])
  }

  func test_flatMapLatest_ignoresEventsOfReplacedInner() {
    // given
    let first = PublishSubject<Int>()
    let second = PublishSubject<Int>()
    let outer = PublishSubject<PublishSubject<Int>>()
    var events: [Event<Int>] = []
    let subscription = outer.flatMapLatest { $0 }.subscribe { events.append($0) }
    // when
    outer.onNext(first)
    first.onNext(1)
    outer.onNext(second)
    first.onNext(2)
    first.onError(TestError(5))
    second.onNext(3)
    outer.onCompleted()
    second.onCompleted()
    // then
    XCTAssertEqual(events, [.next(1), .next(3), .completed])
    XCTAssertFalse(first.hasObservers)
    subscription.dispose()
  }

  func test_flatMapFirst_dropsElementsWhileInnerRuns() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner = scheduler.createColdObservable([.next(10, 1), .completed(50)])
    let outer = scheduler.createHotObservable([
      .next(210, 0), .next(230, 1), .next(270, 2), .completed(280),
    ])
    var selected: [Int] = []
    // when
    let observer = scheduler.start {
      outer.flatMapFirst { value -> TestableObservable<Int> in
        selected.append(value)
        return inner
      }
    }
    // then
    XCTAssertEqual(selected, [0, 2])
    XCTAssertEqual(observer.events, [.next(220, 1), .next(280, 1), .completed(320)])
    XCTAssertEqual(inner.subscriptions, [Subscription(210, 260), Subscription(270, 320)])
  }

  func test_concatMap_runsInnersOneAfterAnother() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([.next(10, 11), .completed(50)])
    let inner2 = scheduler.createColdObservable([.next(10, 21), .completed(20)])
    let outer = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 1), .completed(240),
    ])
    var selectedAt: [Int] = []
    // when
    let observer = scheduler.start {
      outer.concatMap { value -> TestableObservable<Int> in
        selectedAt.append(scheduler.clock)
        return value == 1 ? inner1 : inner2
      }
    }
    // then
    XCTAssertEqual(selectedAt, [210, 220, 230])
    XCTAssertEqual(
      observer.events,
      [.next(220, 11), .next(270, 21), .next(290, 11), .completed(330)])
    XCTAssertEqual(inner1.subscriptions, [Subscription(210, 260), Subscription(280, 330)])
    XCTAssertEqual(inner2.subscriptions, [Subscription(260, 280)])
  }

  func test_concatMap_longQueueOfSynchronousInnersDoesNotRecurse() {
    // given
    let gate = PublishSubject<Int>()
    let outer = PublishSubject<Int>()
    var count = 0
    var completed = false
    let subscription = outer.concatMap { $0 == 0 ? gate.asObservable() : Observable.just($0) }
      .subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
    outer.onNext(0)
    for value in 1...10_000 { outer.onNext(value) }
    outer.onCompleted()
    XCTAssertEqual(count, 0)
    // when
    gate.onCompleted()
    // then
    XCTAssertEqual(count, 10_000)
    XCTAssertTrue(completed)
    subscription.dispose()
  }
}
