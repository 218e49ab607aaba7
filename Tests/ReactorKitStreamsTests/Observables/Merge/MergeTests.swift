import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MergeTests: ResourceTestCase {
  func test_merge_variadicInterleavesAndCompletesAfterAllSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(230, 3), .completed(240),
    ])
    let second = scheduler.createHotObservable([.next(220, 2), .next(250, 4), .completed(260)])
    // when
    let observer = scheduler.start {
      Observable.merge(first.asObservable(), second.asObservable())
    }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4), .completed(260)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 240)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 260)])
  }

  func test_merge_arrayErrorDisposesOtherSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    let second = scheduler.createHotObservable([.next(215, 2), .next(230, 3)])
    // when
    let observer = scheduler.start {
      Observable.merge([first.asObservable(), second.asObservable()])
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(215, 2), .error(220, TestError(1))])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 220)])
  }

  func test_merge_emptyCollectionCompletesAtOnce() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Observable<Int>.merge([Observable<Int>]()) }
    // then
    XCTAssertEqual(observer.events, [.completed(200)])
  }

  func test_merge_disposalEndsEverySubscription() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(400, 3)])
    let second = scheduler.createHotObservable([.next(220, 2), .completed(230)])
    // when
    let observer = scheduler.start(disposed: 300) {
      Observable.merge(first.asObservable(), second.asObservable())
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 230)])
  }

  func test_merge_observableOfObservablesCompletesAfterOuterAndInners() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([.next(10, 1), .next(150, 2), .completed(160)])
    let inner2 = scheduler.createColdObservable([.next(20, 3), .completed(30)])
    let outer = scheduler.createHotObservable([
      .next(300, inner1), .next(400, inner2), .completed(420),
    ])
    // when
    let observer = scheduler.start { outer.merge() }
    // then
    XCTAssertEqual(
      observer.events, [.next(310, 1), .next(420, 3), .next(450, 2), .completed(460)])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 420)])
    XCTAssertEqual(inner1.subscriptions, [Subscription(300, 460)])
    XCTAssertEqual(inner2.subscriptions, [Subscription(400, 430)])
  }

  func test_mergeMaxConcurrent_startsWaitingInnersInOrder() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([.next(10, 1), .completed(100)])
    let inner2 = scheduler.createColdObservable([.next(10, 2), .completed(50)])
    let inner3 = scheduler.createColdObservable([.next(10, 3), .completed(20)])
    let inner4 = scheduler.createColdObservable([.next(10, 4), .completed(20)])
    let outer = scheduler.createHotObservable([
      .next(210, inner1), .next(220, inner2), .next(230, inner3), .next(240, inner4),
      .completed(250),
    ])
    // when
    let observer = scheduler.start { outer.merge(maxConcurrent: 2) }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(220, 1), .next(230, 2), .next(280, 3), .next(300, 4), .completed(310)])
    XCTAssertEqual(inner1.subscriptions, [Subscription(210, 310)])
    XCTAssertEqual(inner2.subscriptions, [Subscription(220, 270)])
    XCTAssertEqual(inner3.subscriptions, [Subscription(270, 290)])
    XCTAssertEqual(inner4.subscriptions, [Subscription(290, 310)])
  }

  func test_mergeMaxConcurrent_errorDropsWaitingInners() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createColdObservable([.error(20, TestError(2), Int.self)])
    let waiting = scheduler.createColdObservable([.next(10, 1)])
    let outer = scheduler.createHotObservable([.next(210, failing), .next(215, waiting)])
    // when
    let observer = scheduler.start { outer.merge(maxConcurrent: 1) }
    // then
    XCTAssertEqual(observer.events, [.error(230, TestError(2))])
    XCTAssertEqual(outer.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(waiting.subscriptions, [])
  }

  func test_merge_synchronousSourcesDeliverEverything() {
    // given
    var count = 0
    var completed = false
    // when
    let subscription = Observable.of(
      Observable.of(0, 1, 2), Observable.of(3, 4, 5), Observable.of(6, 7, 8)
    ).merge().subscribe(onNext: { _ in count += 1 }, onCompleted: { completed = true })
    // then
    XCTAssertEqual(count, 9)
    XCTAssertTrue(completed)
    subscription.dispose()
  }

  func test_merge_synchronousErrorIsDeliveredOnce() {
    // given
    var errors = 0
    // when
    let subscription = Observable.of(
      Observable.of(0, 1), Observable<Int>.error(TestError(3)), Observable.of(2)
    ).merge().subscribe(onError: { _ in errors += 1 })
    // then
    XCTAssertEqual(errors, 1)
    subscription.dispose()
  }

  func test_merge_emptyOuterAndEmptyInnerComplete() {
    // given
    var completions = 0
    // when
    let first = Observable<Observable<Int>>.empty().merge()
      .subscribe(onCompleted: { completions += 1 })
    let second = Observable.just(Observable<Int>.empty()).merge(maxConcurrent: 1)
      .subscribe(onCompleted: { completions += 1 })
    // then
    XCTAssertEqual(completions, 2)
    first.dispose()
    second.dispose()
  }

  func test_switchLatest_followsNewestInner() {
    // given
    let first = PublishSubject<Int>()
    let second = PublishSubject<Int>()
    let outer = PublishSubject<Observable<Int>>()
    var received: [Int] = []
    let subscription = outer.switchLatest().subscribe(onNext: { received.append($0) })
    // when
    outer.onNext(first)
    first.onNext(1)
    outer.onNext(second)
    first.onNext(2)
    second.onNext(3)
    // then
    XCTAssertEqual(received, [1, 3])
    subscription.dispose()
  }

  func test_merge_resourcesAreReleasedAfterCompletion() {
    // given
    let start = Resources.total
    // when
    _ = Observable.merge(Observable.just(1), Observable.just(2)).subscribe()
    // then
    XCTAssertEqual(Resources.total, start)
  }
}
