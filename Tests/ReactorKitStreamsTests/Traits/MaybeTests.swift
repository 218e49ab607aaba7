import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MaybeTests: ResourceTestCase {
  func test_maybeCreate_reportsSuccessCompletionOrError() {
    // given
    func maybe(_ event: MaybeEvent<Int>) -> Maybe<Int> {
      Maybe.create { observer in
        observer(event)
        observer(.success(99))
        return Disposables.create()
      }
    }
    var log: [String] = []
    // when
    for event in [MaybeEvent.success(1), .completed, .error(TestError(2))] {
      _ = maybe(event).subscribe(
        onSuccess: { log.append("success \($0)") },
        onError: { log.append("error \(($0 as? TestError)?.id ?? 0)") },
        onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
    }
    // then
    XCTAssertEqual(
      log, ["success 1", "disposed", "completed", "disposed", "error 2", "disposed"])
  }

  func test_maybeSubscribeEvent_completedOnlyWithoutElement() {
    // given
    var events: [String] = []
    // when
    _ = Maybe.just(1).subscribe { event in
      switch event {
      case .success(let value): events.append("success \(value)")
      case .error: events.append("error")
      case .completed: events.append("completed")
      }
    }
    _ = Maybe<Int>.empty().subscribe { event in
      if case .completed = event { events.append("completed") }
    }
    // then
    XCTAssertEqual(events, ["success 1", "completed"])
  }

  func test_asMaybe_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let empty = scheduler.createHotObservable([.completed(250, Int.self)])
    let two = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
    // when
    let emptyResult = scheduler.start(created: 100, subscribed: 200, disposed: 1000) {
      empty.asMaybe().asObservable()
    }
    let twoScheduler = TestScheduler(initialClock: 0)
    let twoOnOwn = twoScheduler.createHotObservable([.next(210, 1), .next(220, 2)])
    let twoResult = twoScheduler.start { twoOnOwn.asMaybe().asObservable() }
    _ = two
    // then
    XCTAssertEqual(emptyResult.events, [.completed(250)])
    XCTAssertEqual(twoResult.events, [.error(220, RxError.moreThanOneElement)])
    XCTAssertEqual(twoOnOwn.subscriptions, [Subscription(200, 220)])
  }

  func test_maybeIfEmpty_switchesOnlyWhenEmpty_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let empty = scheduler.createColdObservable([.completed(10, Int.self)])
    let fallback = scheduler.createColdObservable([.next(5, 42), .completed(5)])
    // when
    let observer = scheduler.start {
      empty.asMaybe().ifEmpty(switchTo: fallback.asSingle()).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(215, 42), .completed(215)])
    XCTAssertEqual(empty.subscriptions, [Subscription(200, 210)])
    XCTAssertEqual(fallback.subscriptions, [Subscription(210, 215)])
  }

  func test_maybeIfEmpty_synchronousSources() {
    // when
    let defaulted = try? Maybe<Int>.empty().ifEmpty(default: 3).toBlocking().single()
    let kept = try? Maybe.just(1).ifEmpty(default: 3).toBlocking().single()
    let switched = try? Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(5)).toBlocking()
      .toArray()
    // then
    XCTAssertEqual(defaulted, 3)
    XCTAssertEqual(kept, 1)
    XCTAssertEqual(switched, [5])
  }

  func test_maybeOperators_mapFilterFlatMapCatch() {
    // when
    let mapped = try? Maybe.just(2).map { $0 * 3 }.toBlocking().toArray()
    let filtered = try? Maybe.just(2).filter { $0 > 5 }.toBlocking().toArray()
    let flat = try? Maybe.just(2).flatMap { Maybe.just("\($0)") }.toBlocking().toArray()
    let caught = try? Maybe<Int>.error(TestError(1)).catchAndReturn(0).toBlocking().toArray()
    let compact = try? Single.just("x").compactMap { Int($0) }.toBlocking().toArray()
    let asSingle = Maybe<Int>.empty().asSingle().toBlocking().materialize()
    // then
    XCTAssertEqual(mapped, [6])
    XCTAssertEqual(filtered, [])
    XCTAssertEqual(flat, ["2"])
    XCTAssertEqual(caught, [0])
    XCTAssertEqual(compact, [])
    XCTAssertEqual((asSingle.error as? RxError).map { "\($0)" }, "\(RxError.noElements)")
  }
}
