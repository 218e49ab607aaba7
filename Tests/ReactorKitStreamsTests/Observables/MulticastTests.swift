import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MulticastTests: ResourceTestCase {
  func test_publish_deliversOnlyWhileConnected() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(260, 2), .next(310, 3), .next(360, 4), .completed(500),
    ])
    let published = source.publish()
    let observer = scheduler.createObserver(Int.self)
    var connection: Disposable?
    var subscription: Disposable?
    // when
    scheduler.scheduleAt(200) { subscription = published.subscribe(observer) }
    scheduler.scheduleAt(250) { connection = published.connect() }
    scheduler.scheduleAt(330) { connection?.dispose() }
    scheduler.scheduleAt(600) { subscription?.dispose() }
    scheduler.start()
    // then
    XCTAssertEqual(observer.events, [.next(260, 2), .next(310, 3)])
    XCTAssertEqual(source.subscriptions, [Subscription(250, 330)])
  }

  func test_connect_whileConnectedReturnsTheSameConnection() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1)])
    let published = source.publish()
    // when
    let first = published.connect()
    let second = published.connect()
    second.dispose()
    let third = published.connect()
    // then
    XCTAssertTrue((first as AnyObject) === (second as AnyObject))
    XCTAssertFalse((first as AnyObject) === (third as AnyObject))
    XCTAssertEqual(source.subscriptions, [Subscription(0, 0), Subscription(0)])
    third.dispose()
  }

  func test_replay_replaysBufferToLateObserversUntilTheConnectionEnds() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
    ])
    let replayed = source.replay(2)
    let early = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    let after = scheduler.createObserver(Int.self)
    var bag = DisposeBag()
    // when
    scheduler.scheduleAt(200) {
      replayed.subscribe(early).disposed(by: bag)
      replayed.connect().disposed(by: bag)
    }
    scheduler.scheduleAt(235) { replayed.subscribe(late).disposed(by: bag) }
    // After completion the connection has ended: a new subscriber waits for a new one.
    scheduler.scheduleAt(300) { replayed.subscribe(after).disposed(by: bag) }
    scheduler.start()
    bag = DisposeBag()
    // then
    XCTAssertEqual(early.events, [.next(210, 1), .next(220, 2), .next(230, 3), .completed(240)])
    XCTAssertEqual(late.events, [.next(235, 2), .next(235, 3), .completed(240)])
    XCTAssertEqual(after.events, [])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 240)])
  }

  func test_replayAll_replaysEveryElement() {
    // given
    let subject = PublishSubject<Int>()
    let replayed = subject.replayAll()
    let connection = replayed.connect()
    // when
    for value in 1...5 { subject.onNext(value) }
    var received: [Int] = []
    let subscription = replayed.subscribe(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, [1, 2, 3, 4, 5])
    subscription.dispose()
    connection.dispose()
  }

  func test_multicastMakeSubject_newSubjectAfterTermination() {
    // given
    var subscriptions = 0
    let source = Observable<Int>.deferred {
      subscriptions += 1
      return .just(subscriptions)
    }
    let connectable = source.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) })
    var first: [Event<Int>] = []
    var second: [Event<Int>] = []
    // when
    _ = connectable.subscribe { first.append($0) }
    _ = connectable.connect()
    _ = connectable.subscribe { second.append($0) }
    _ = connectable.connect()
    // then
    XCTAssertEqual(first, [.next(1), .completed])
    XCTAssertEqual(second, [.next(2), .completed])
  }

  func test_multicastSubject_keepsTerminatedSubject() {
    // given
    var subscriptions = 0
    let source = Observable<Int>.deferred {
      subscriptions += 1
      return .just(subscriptions)
    }
    let connectable = source.multicast(ReplaySubject<Int>.create(bufferSize: 1))
    var second: [Event<Int>] = []
    // when
    _ = connectable.connect()
    _ = connectable.subscribe { second.append($0) }
    _ = connectable.connect()
    // then
    XCTAssertEqual(second, [.next(1), .completed])
    XCTAssertEqual(subscriptions, 2)
  }

  func test_replay_reconnectAfterDisconnect_usesANewSubject() {
    for make in [
      { (source: TestableObservable<Int>) in source.replay(1) },
      { (source: TestableObservable<Int>) in source.replayAll() },
      { (source: TestableObservable<Int>) in
        source.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 1) })
      },
    ] {
      // given
      let scheduler = TestScheduler(initialClock: 0)
      let source = scheduler.createHotObservable([
        .next(210, 1), .next(310, 2), .completed(400),
      ])
      let connectable = make(source)
      let early = scheduler.createObserver(Int.self)
      let late = scheduler.createObserver(Int.self)
      var first: Disposable?
      var subscriptions: [Disposable] = []
      // when
      scheduler.scheduleAt(200) {
        subscriptions.append(connectable.subscribe(early))
        first = connectable.connect()
      }
      scheduler.scheduleAt(250) { first?.dispose() }
      scheduler.scheduleAt(300) { subscriptions.append(connectable.connect()) }
      scheduler.scheduleAt(350) { subscriptions.append(connectable.subscribe(late)) }
      scheduler.start()
      // then
      XCTAssertEqual(early.events, [.next(210, 1)])
      XCTAssertEqual(late.events, [.next(350, 2), .completed(400)])
      XCTAssertEqual(source.subscriptions, [Subscription(200, 250), Subscription(300, 400)])
      subscriptions.forEach { $0.dispose() }
    }
  }

  func test_replay_reconnectAfterCompletion_startsAfresh() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let connectable = source.replay(1)
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    var subscriptions: [Disposable] = []
    // when
    scheduler.scheduleAt(200) {
      subscriptions.append(connectable.subscribe(first))
      subscriptions.append(connectable.connect())
    }
    scheduler.scheduleAt(300) {
      subscriptions.append(connectable.subscribe(second))
      subscriptions.append(connectable.connect())
    }
    scheduler.start()
    // then
    XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
    XCTAssertEqual(second.events, [.next(310, 1), .completed(320)])
    subscriptions.forEach { $0.dispose() }
  }

  func test_multicastSelector_sharesOneSubscriptionPerSubscriber() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    var subjects = 0
    // when
    let observer = scheduler.start {
      source.multicast(
        { () -> PublishSubject<Int> in
          subjects += 1
          return PublishSubject()
        },
        selector: { shared in Observable.zip(shared, shared.map { $0 * 10 }) { $0 + $1 } })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 11), .next(220, 22), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(subjects, 1)
  }

  func test_multicastSelector_errorsAndDisposal() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(260, 2)])
    // when
    let disposed = scheduler.start(disposed: 250) {
      source.multicast({ PublishSubject<Int>() }, selector: { $0.map { $0 + 1 } })
    }
    let thrown = scheduler.start(created: 1100, subscribed: 1200, disposed: 1300) {
      source.multicast(
        { PublishSubject<Int>() }, selector: { _ -> Observable<Int> in throw TestError(4) })
    }
    // then
    XCTAssertEqual(disposed.events, [.next(210, 2)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
    XCTAssertEqual(thrown.events, [.error(1200, TestError(4))])
  }
}
