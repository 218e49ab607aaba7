import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ZipTests: ResourceTestCase {
  func test_zip_pairsElementsByPosition() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(150, 0), .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
    ])
    let second = scheduler.createHotObservable([.next(225, 10), .next(240, 20), .completed(250)])
    // when
    let observer = scheduler.start { Observable.zip(first, second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(225, 11), .next(240, 22), .completed(300)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 300)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 250)])
  }

  func test_zip_doesNotCompleteUntilEverySourceCompleted() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let silent = scheduler.createHotObservable([.next(150, 1)])
    let empty = scheduler.createHotObservable([.completed(210, Int.self)])
    // when
    let observer = scheduler.start { Observable.zip(silent, empty) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(silent.subscriptions, [Subscription(200, 1000)])
    XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
  }

  func test_zip_tupleFormsForThreeAndFourSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createHotObservable([.next(210, 1), .completed(300)])
    let b = scheduler.createHotObservable([.next(220, "b"), .completed(300)])
    let c = scheduler.createHotObservable([.next(230, 3.5), .completed(300)])
    let d = scheduler.createHotObservable([.next(240, true), .completed(310)])
    // when
    let three = scheduler.start { Observable.zip(a, b, c).map { "\($0)\($1)\($2)" } }
    let four = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
      Observable.zip(
        Observable.just(1), Observable.just("x"), Observable.just(2.0), d.asObservable()
      )
      .map { "\($0)\($1)\($2)\($3)" }
    }
    // then
    XCTAssertEqual(three.events, [.next(230, "1b3.5"), .completed(300)])
    XCTAssertEqual(four.events, [])
  }

  func test_zip_fourSourcesWithSelector() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let sources = (1...4).map { index in
      scheduler.createHotObservable([.next(200 + index * 10, index), .completed(300 + index)])
    }
    // when
    let observer = scheduler.start {
      Observable.zip(sources[0], sources[1], sources[2], sources[3]) { $0 + $1 + $2 + $3 }
    }
    // then
    XCTAssertEqual(observer.events, [.next(240, 10), .completed(304)])
  }

  func test_zip_errorEndsAndDisposesAll() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
    let second = scheduler.createHotObservable([.next(220, 10), .error(225, TestError(1))])
    // when
    let observer = scheduler.start { Observable.zip(first, second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 11), .error(225, TestError(1))])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 225)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 225)])
  }

  func test_zip_throwingSelectorEndsWithError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1)])
    let second = scheduler.createHotObservable([.next(220, 2)])
    // when
    let observer = scheduler.start {
      Observable.zip(first, second) { _, _ -> Int in throw TestError(2) }
    }
    // then
    XCTAssertEqual(observer.events, [.error(220, TestError(2))])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
  }

  func test_zip_collectionAndEmptyCollection() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(240, 4), .completed(250)])
    let second = scheduler.createHotObservable([.next(220, 2), .next(230, 3), .completed(260)])
    // when
    let arrays = scheduler.start { Observable.zip([first, second]).map { $0.description } }
    let empty = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
      Observable<Int>.zip([Observable<Int>]()) { $0.count }
    }
    // then
    XCTAssertEqual(arrays.events, [.next(220, "[1, 2]"), .next(240, "[4, 3]"), .completed(260)])
    XCTAssertEqual(empty.events, [.completed(1200)])
  }

  func test_zipCollection_completesWhenAnElementCanNeverBePaired() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(210, 1), .next(310, 2), .next(320, 3), .completed(410),
    ])
    let second = scheduler.createHotObservable([.next(220, 10), .completed(300)])
    // when
    let observer = scheduler.start { Observable.zip([first, second]).map { $0.reduce(0, +) } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 11), .completed(310)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 310)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 300)])
  }

  func test_zipCollection_waitsWhileTheCompletedSourceStillHasBufferedElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let second = scheduler.createHotObservable([.next(300, 10), .next(310, 20), .next(320, 30)])
    // when
    let observer = scheduler.start { Observable.zip([first, second]).map { $0.reduce(0, +) } }
    // then
    XCTAssertEqual(observer.events, [.next(300, 11), .next(310, 22), .completed(320)])
    XCTAssertEqual(second.subscriptions, [Subscription(200, 320)])
  }

  func test_zipFixedArity_completesOnlyWhenEverySourceCompleted() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(210, 1), .next(310, 2), .next(320, 3), .completed(410),
    ])
    let second = scheduler.createHotObservable([.next(220, 10), .completed(300)])
    // when
    let observer = scheduler.start { Observable.zip(first, second) { $0 + $1 } }
    // then
    XCTAssertEqual(observer.events, [.next(220, 11), .completed(410)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 410)])
  }

  func test_zip_concurrentSourcesPairEveryElement() {
    // given
    let subjects = (0..<4).map { _ in PublishSubject<Int>() }
    let probe = DeliveryProbe()
    let received = LockedValues<[Int]>()
    let subscription = Observable.zip(subjects.map { $0.asObservable() })
      .subscribe(onNext: { values in
        probe.enter()
        received.append(values)
        probe.leave()
      })
    // when
    runConcurrently(threads: 4) { index in
      for step in 0..<1_000 { subjects[index].onNext(step) }
    }
    // then
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertEqual(received.all, (0..<1_000).map { [$0, $0, $0, $0] })
    subscription.dispose()
  }
}
