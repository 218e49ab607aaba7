import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ShareTests: ResourceTestCase {
  func test_share_whileConnectedReplayStartsFreshAfterReconnection() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
    let shared = source.share(replay: 1, scope: .whileConnected)
    let first = scheduler.createObserver(Int.self)
    let late = scheduler.createObserver(Int.self)
    let again = scheduler.createObserver(Int.self)
    var subscriptions: [Disposable] = []
    // when
    scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
    scheduler.scheduleAt(215) { subscriptions.append(shared.subscribe(late)) }
    scheduler.scheduleAt(225) { subscriptions.forEach { $0.dispose() } }
    scheduler.scheduleAt(300) { subscriptions = [shared.subscribe(again)] }
    scheduler.scheduleAt(400) { subscriptions.forEach { $0.dispose() } }
    scheduler.start()
    // then
    XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
    XCTAssertEqual(late.events, [.next(215, 1), .next(220, 2)])
    XCTAssertEqual(again.events, [.next(310, 1), .next(320, 2), .next(330, 3)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 225), Subscription(300, 400)])
  }

  func test_share_foreverReplaysStaleElementsAfterReconnection() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
    let shared = source.share(replay: 1, scope: .forever)
    let first = scheduler.createObserver(Int.self)
    let again = scheduler.createObserver(Int.self)
    var subscription: Disposable?
    // when
    scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
    scheduler.scheduleAt(225) { subscription?.dispose() }
    scheduler.scheduleAt(300) { subscription = shared.subscribe(again) }
    scheduler.scheduleAt(400) { subscription?.dispose() }
    scheduler.start()
    // then
    XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2)])
    XCTAssertEqual(again.events, [.next(300, 2), .next(310, 1), .next(320, 2), .next(330, 3)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 225), Subscription(300, 400)])
  }

  func test_share_foreverAfterCompletionReplaysWithoutResubscribing() {
    // given
    var subscriptions = 0
    let source = Observable<Int>.deferred {
      subscriptions += 1
      return .of(subscriptions * 10, subscriptions * 10 + 1)
    }
    let shared = source.share(replay: 1, scope: .forever)
    var first: [Event<Int>] = []
    var second: [Event<Int>] = []
    // when
    _ = shared.subscribe { first.append($0) }
    _ = shared.subscribe { second.append($0) }
    // then
    XCTAssertEqual(first, [.next(10), .next(11), .completed])
    XCTAssertEqual(second, [.next(11), .completed])
    XCTAssertEqual(subscriptions, 1)
  }

  func test_share_whileConnectedAfterCompletionResubscribes() {
    // given
    var subscriptions = 0
    let source = Observable<Int>.deferred {
      subscriptions += 1
      return .of(subscriptions * 10, subscriptions * 10 + 1)
    }
    let shared = source.share(replay: 1)
    var first: [Event<Int>] = []
    var second: [Event<Int>] = []
    // when
    _ = shared.subscribe { first.append($0) }
    _ = shared.subscribe { second.append($0) }
    // then
    XCTAssertEqual(first, [.next(10), .next(11), .completed])
    XCTAssertEqual(second, [.next(20), .next(21), .completed])
    XCTAssertEqual(subscriptions, 2)
  }

  func test_share_withoutReplaySharesOneSubscription() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    let shared = source.share()
    let first = scheduler.createObserver(Int.self)
    let second = scheduler.createObserver(Int.self)
    // when
    scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
    scheduler.scheduleAt(215) { _ = shared.subscribe(second) }
    scheduler.start()
    // then
    XCTAssertEqual(first.events, [.next(210, 1), .next(220, 2), .completed(230)])
    XCTAssertEqual(second.events, [.next(220, 2), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_share_largerReplayBufferWhileConnected() {
    // given
    let subject = PublishSubject<Int>()
    let shared = subject.share(replay: 3)
    let keeper = shared.subscribe()
    for value in 1...5 { subject.onNext(value) }
    var received: [Int] = []
    // when
    let late = shared.subscribe(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, [3, 4, 5])
    late.dispose()
    keeper.dispose()
  }

  func test_share_errorIsDeliveredToEveryObserverAndClearsTheBuffer() {
    // given
    let subject = PublishSubject<Int>()
    let shared = subject.share(replay: 1)
    var first: [Event<Int>] = []
    var second: [Event<Int>] = []
    _ = shared.subscribe { first.append($0) }
    _ = shared.subscribe { second.append($0) }
    // when
    subject.onNext(1)
    subject.onError(TestError(1))
    var third: [Event<Int>] = []
    _ = shared.subscribe { third.append($0) }
    // then
    XCTAssertEqual(first, [.next(1), .error(TestError(1))])
    XCTAssertEqual(second, [.next(1), .error(TestError(1))])
    XCTAssertEqual(third, [.error(TestError(1))])
  }
}
