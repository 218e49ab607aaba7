import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// A sequence of the user's own that breaks the event grammar: an element after its
/// completion. It records whether its subscription was disposed.
private struct Raw: ObservableType {
  typealias Element = Int
  let disposals: LockedValues<String>

  func subscribe<O: ObserverType>(_ observer: O) -> Disposable where O.Element == Int {
    observer.on(.next(1))
    observer.on(.completed)
    disposals.append("after completed")
    observer.on(.next(2))
    observer.on(.error(TestError(1)))
    return Disposables.create { disposals.append("disposed") }
  }
}

/// A source of the user's own that hands its observer out, so the test sends events (and
/// the terminal event) after `subscribe` returned.
private final class Manual: ObservableType, @unchecked Sendable {
  typealias Element = Int
  var observer: AnyObserver<Int>?
  var disposeCount = 0

  func subscribe<O: ObserverType>(_ observer: O) -> Disposable where O.Element == Int {
    self.observer = observer.asObserver()
    return Disposables.create { self.disposeCount += 1 }
  }
}

/// Every path by which a user's own `ObservableType` enters the stream core keeps the event
/// grammar (nothing after the first terminal event) and ends the source's subscription at the
/// terminal event, as RxSwift's `asObservable()` (through `Observable.create`) does.
final class ObservableTypeGrammarTests: ResourceTestCase {
  func test_asObservable_dropsEventsAfterTheEndAndDisposesTheSourceThen() {
    // given
    let disposals = LockedValues<String>()
    let events = LockedValues<Event<Int>>()
    // when
    let subscription = Raw(disposals: disposals).asObservable().subscribe { events.append($0) }
    // then: RxSwift gives next(1), completed, and disposes the source at once
    XCTAssertEqual(events.all, [.next(1), .completed])
    XCTAssertEqual(disposals.all, ["after completed", "disposed"])
    subscription.dispose()
    XCTAssertEqual(disposals.all, ["after completed", "disposed"])
  }

  func test_closureSubscribe_onTheUsersType_keepsTheGrammar() {
    // given
    let disposals = LockedValues<String>()
    let events = LockedValues<Event<Int>>()
    // when
    _ = Raw(disposals: disposals).subscribe { events.append($0) }
    // then
    XCTAssertEqual(events.all, [.next(1), .completed])
    XCTAssertEqual(disposals.all, ["after completed", "disposed"])
  }

  func test_subscribeOnNext_andBind_onTheUsersType_endAtTheTerminalEvent() {
    // given
    let source = Manual()
    let elements = LockedValues<Int>()
    let completions = LockedValues<Int>()
    let relay = PublishRelay<Int>()
    let relayed = LockedValues<Int>()
    let relaySubscription = relay.subscribe(onNext: { relayed.append($0) })
    defer { relaySubscription.dispose() }
    // when
    let subscription = source.subscribe(
      onNext: { elements.append($0) }, onCompleted: { completions.append(0) })
    let first = source.observer
    let binding = source.bind(to: relay)
    let second = source.observer
    first?.on(.next(1))
    second?.on(.next(10))
    first?.on(.completed)
    second?.on(.completed)
    first?.on(.next(2))
    first?.on(.completed)
    second?.on(.next(20))
    // then
    XCTAssertEqual(elements.all, [1])
    XCTAssertEqual(completions.all, [0])
    XCTAssertEqual(relayed.all, [10])
    XCTAssertEqual(source.disposeCount, 2, "both subscriptions end at their completion")
    subscription.dispose()
    binding.dispose()
    XCTAssertEqual(source.disposeCount, 2)
  }

  func test_operatorsAndTraits_onTheUsersType_keepTheGrammar() {
    // given
    let disposals = LockedValues<String>()
    let mapped = LockedValues<Event<Int>>()
    let single = LockedValues<Int>()
    // when
    _ = Raw(disposals: disposals).map { $0 * 10 }.subscribe { mapped.append($0) }
    _ = Raw(disposals: disposals).asSingle().subscribe(onSuccess: { single.append($0) })
    // then
    XCTAssertEqual(mapped.all, [.next(10), .completed])
    XCTAssertEqual(single.all, [1])
    XCTAssertEqual(disposals.all.filter { $0 == "disposed" }.count, 2)
  }

  func test_hotTestableObservable_asObservable_endsAtCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let hot = scheduler.createHotObservable([.next(210, 1), .completed(250), .next(260, 2)])
    // when
    let observer = scheduler.start { hot.asObservable() }
    // then: as RxSwift records it
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(250)])
    XCTAssertEqual(hot.subscriptions, [Subscription(200, 250)])
  }

  func test_neverElementAsCompletable_onTheUsersType_endsAtTheFirstTerminalEvent() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let hot = scheduler.createHotObservable([
      .completed(250, Never.self), .error(260, TestError(1), Never.self),
    ])
    // when
    let observer = scheduler.start { hot.asCompletable() }
    // then
    XCTAssertEqual(observer.events, [.completed(250)])
    XCTAssertEqual(hot.subscriptions, [Subscription(200, 250)])
  }
}
