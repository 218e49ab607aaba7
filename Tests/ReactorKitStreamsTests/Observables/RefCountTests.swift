import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class RefCountTests: ResourceTestCase {
  func test_refCount_connectsOnFirstAndDisconnectsAfterLastObserver() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(240, 2), .next(270, 3), .next(330, 4),
    ])
    let shared = source.publish().refCount()
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    var firstSubscription: Disposable?
    var secondSubscription: Disposable?
    // when
    scheduler.scheduleAt(200) { firstSubscription = shared.subscribe(first) }
    scheduler.scheduleAt(230) { secondSubscription = shared.subscribe(second) }
    scheduler.scheduleAt(250) { firstSubscription?.dispose() }
    scheduler.scheduleAt(280) { secondSubscription?.dispose() }
    scheduler.scheduleAt(300) { firstSubscription = shared.subscribe(first) }
    scheduler.scheduleAt(350) { firstSubscription?.dispose() }
    scheduler.start()
    // then
    XCTAssertEqual(first.events, [.next(210, 1), .next(240, 2), .next(330, 4)])
    XCTAssertEqual(second.events, [.next(240, 2), .next(270, 3)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 280), Subscription(300, 350)])
  }

  func test_refCount_terminalEventEndsTheConnectionForEveryone() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let shared = source.multicast(makeSubject: { PublishSubject<Int>() }).refCount()
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    // when
    scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
    scheduler.scheduleAt(205) { _ = shared.subscribe(second) }
    scheduler.scheduleAt(300) { _ = shared.subscribe(first) }
    scheduler.start()
    // then
    XCTAssertEqual(
      first.events, [.next(210, 1), .completed(220), .next(310, 1), .completed(320)])
    XCTAssertEqual(second.events, [.next(210, 1), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
  }

  func test_refCount_overTerminatedPublishReconnectsForLateObservers() {
    // RxSwift 6: `publish()` makes a new subject for each connection.
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    let shared = source.publish().refCount()
    let first = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    // when
    scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
    scheduler.scheduleAt(300) { _ = shared.subscribe(late) }
    scheduler.start()
    // then
    XCTAssertEqual(first.events, [.next(210, 1), .completed(220)])
    XCTAssertEqual(late.events, [.next(310, 1), .completed(320)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220), Subscription(300, 320)])
  }

  func test_refCount_observerDisposingInsideOnNextReleasesConnection() {
    // given
    let subject = PublishSubject<Int>()
    let shared = subject.share()
    var received: [Int] = []
    var subscription: Disposable?
    // when
    subscription = shared.subscribe(onNext: { value in
      received.append(value)
      subscription?.dispose()
    })
    subject.onNext(1)
    subject.onNext(2)
    // then
    XCTAssertEqual(received, [1])
    XCTAssertFalse(subject.hasObservers)
    subscription = nil
  }

  func test_refCount_concurrentSubscribersShareOneConnection() {
    // given
    let connections = LockedValues<Int>()
    let disconnections = LockedValues<Int>()
    let subject = PublishSubject<Int>()
    let shared = subject.asObservable()
      .doOnLifecycle(subscribe: { connections.append(1) }, dispose: { disconnections.append(1) })
      .share(replay: 1)
    let keeper = shared.subscribe()
    // when
    runConcurrently(threads: 4) { worker in
      for index in 0..<300 {
        let subscription = shared.subscribe()
        if index % 7 == 0 { subject.onNext(worker) }
        sched_yield()
        subscription.dispose()
      }
    }
    // then
    XCTAssertEqual(connections.all.count, 1)
    XCTAssertEqual(disconnections.all.count, 0)
    keeper.dispose()
    XCTAssertEqual(disconnections.all.count, 1)
    XCTAssertFalse(subject.hasObservers)
  }

  func test_refCount_concurrentConnectAndDisconnectStaysBalanced() {
    // given
    let active = LockedCounter()
    let maximum = LockedValues<Int>()
    let source = Observable<Int>.never()
      .doOnLifecycle(
        subscribe: { maximum.append(active.increment()) }, dispose: { active.decrement() }
      )
      .share()
    // when
    runConcurrently(threads: 4) { _ in
      for _ in 0..<300 {
        let subscription = source.subscribe()
        sched_yield()
        subscription.dispose()
      }
    }
    // then
    XCTAssertLessThanOrEqual(maximum.all.max() ?? 0, 1, "Two connections were open at once")
    XCTAssertEqual(active.increment(), 1, "A connection was left open")
  }
}

extension ObservableType {
  /// Calls `subscribe` when subscribed and `dispose` when the subscription ends; a test helper
  /// so these tests do not depend on the `do` operator.
  fileprivate func doOnLifecycle(subscribe: @escaping () -> Void, dispose: @escaping () -> Void)
    -> Observable<Element>
  {
    let source = asObservable()
    return Observable.create { observer in
      subscribe()
      let subscription = source.subscribe(observer)
      return Disposables.create {
        subscription.dispose()
        dispose()
      }
    }
  }
}
