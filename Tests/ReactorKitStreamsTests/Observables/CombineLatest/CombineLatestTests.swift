import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class CombineLatestTests: ResourceTestCase {
  func test_combineLatest_emitsOnEveryElementOnceAllHaveValues() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(240, 3), .completed(300),
    ])
    let second = scheduler.createHotObservable([.next(220, 10), .next(250, 20), .completed(280)])
    // when
    let observer = scheduler.start {
      Observable.combineLatest(first, second) { $0 + $1 }
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(220, 11), .next(240, 13), .next(250, 23), .completed(300)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 280)])
  }

  func test_combineLatest_tupleFormCombinesThreeSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1)])
    let second = scheduler.createHotObservable([.next(220, "a")])
    let third = scheduler.createHotObservable([.next(230, true), .next(240, false)])
    // when
    let observer = scheduler.start {
      Observable.combineLatest(first, second, third).map { "\($0)\($1)\($2)" }
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, "1atrue"), .next(240, "1afalse")])
  }

  func test_combineLatest_fourSourcesWithSelector() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let sources = (1...4).map { index in
      scheduler.createHotObservable([.next(200 + index * 10, index), .completed(300)])
    }
    // when
    let observer = scheduler.start {
      Observable.combineLatest(sources[0], sources[1], sources[2], sources[3]) {
        $0 * 1000 + $1 * 100 + $2 * 10 + $3
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(240, 1234), .completed(300)])
  }

  func test_combineLatest_emptySourceNeverCompletesWhileOtherIsSilent() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
    let silent = scheduler.createHotObservable([.next(150, 1)])
    // when
    let observer = scheduler.start { Observable.combineLatest(empty, silent) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
    XCTAssertEqual(silent.subscriptions, [Subscription(200, 1000)])
  }

  func test_combineLatest_completesWhenOtherEmitsAfterEmptySourceCompleted() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let empty = scheduler.createHotObservable([.completed(210, Int.self)])
    let other = scheduler.createHotObservable([.next(215, 2), .completed(220)])
    // when
    let observer = scheduler.start { Observable.combineLatest(empty, other) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.completed(215)])
    XCTAssertEqual(other.subscriptions, [Subscription(200, 215)])
  }

  func test_combineLatest_errorDisposesAllSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
    let second = scheduler.createHotObservable([.next(220, 2), .error(240, TestError(2))])
    // when
    let observer = scheduler.start { Observable.combineLatest(first, second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 3), .error(230, TestError(1))])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 230)])
  }

  func test_combineLatest_throwingSelectorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
    let second = scheduler.createHotObservable([.next(220, 10)])
    // when
    let observer = scheduler.start {
      Observable.combineLatest(first, second) { left, right -> Int in
        if left == 2 { throw TestError(3) }
        return left + right
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(220, 11), .error(230, TestError(3))])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 230)])
  }

  func test_combineLatest_disposalEndsSubscriptions() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(400, 2)])
    let second = scheduler.createHotObservable([.next(220, 10)])
    // when
    let observer = scheduler.start(disposed: 300) {
      Observable.combineLatest(first, second) { $0 + $1 }
    }
    // then
    XCTAssertEqual(observer.events, [.next(220, 11)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 300)])
  }

  func test_combineLatest_collectionCombinesIntoArrays() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(250)])
    let second = scheduler.createHotObservable([.next(220, 2), .completed(260)])
    let third = scheduler.createHotObservable([.next(230, 3), .completed(270)])
    // when
    let observer = scheduler.start {
      Observable.combineLatest([first, second, third]).map { $0.map(String.init).joined() }
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, "123"), .next(240, "423"), .completed(270)])
  }

  func test_combineLatest_collectionWithSelectorAndEmptyCollection() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let second = scheduler.createHotObservable([.next(215, 2), .completed(230)])
    // when
    let summed = scheduler.start {
      Observable.combineLatest([first, second]) { $0.reduce(0, +) }
    }
    let empty = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
      Observable.combineLatest([Observable<Int>]())
    }
    // then
    XCTAssertEqual(summed.events, [.next(215, 3), .completed(230)])
    XCTAssertEqual(empty.events, [.next(1200, []), .completed(1200)])
  }

  func test_combineLatest_emptyCollectionWithSelector_emitsTheSelectorsResultThenCompletes() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let counted = scheduler.start {
      Observable<Int>.combineLatest([Observable<Int>]()) { $0.count }
    }
    let failed = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
      Observable<Int>.combineLatest([Observable<Int>]()) { _ in throw TestError(1) }
    }
    // then
    XCTAssertEqual(counted.events, [.next(200, 0), .completed(200)])
    XCTAssertEqual(failed.events, [.error(1200, TestError(1))])
  }

  func test_combineLatest_synchronousSources() {
    // given
    var received: [String] = []
    // when
    let subscription = Observable.combineLatest(Observable.of(1, 2), Observable.of("a", "b"))
      .subscribe(onNext: { received.append("\($0)\($1)") })
    // then: both sources start on the trampoline once the subscribing call is done, and
    // their elements interleave, as in RxSwift
    XCTAssertEqual(received, ["1a", "2a", "2b"])
    subscription.dispose()
  }

  func test_combineLatest_concurrentSourcesStaySerialAndEndWithLatest() {
    // given
    let subjects = (0..<4).map { _ in PublishSubject<Int>() }
    let probe = DeliveryProbe()
    let last = LockedValues<[Int]>()
    let subscription = Observable.combineLatest(subjects.map { $0.asObservable() })
      .subscribe(onNext: { values in
        probe.enter()
        last.append(values)
        probe.leave()
      })
    // when
    runConcurrently(threads: 4) { index in
      for step in 0...1_000 { subjects[index].onNext(step) }
    }
    // then
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertEqual(last.all.last, [1_000, 1_000, 1_000, 1_000])
    subscription.dispose()
  }
}
