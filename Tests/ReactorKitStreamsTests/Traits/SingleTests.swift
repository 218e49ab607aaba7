import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class SingleTests: ResourceTestCase {
  func test_singleCreate_successEmitsTheElementThenCompletes() {
    // given
    var cancelled = 0
    let single = Single<Int>.create { observer in
      observer(.success(1))
      observer(.success(2))
      observer(.failure(TestError(1)))
      return Disposables.create { cancelled += 1 }
    }
    var results: [SingleEvent<Int>] = []
    // when
    _ = single.subscribe { results.append($0) }
    // then
    XCTAssertEqual(results.count, 1)
    XCTAssertEqual(try? results.first?.get(), 1)
    XCTAssertEqual(cancelled, 1)
    XCTAssertEqual(single.asObservable().toBlocking().materialize().elements, [1])
  }

  func test_singleSubscribe_onSuccessOnFailureOnDisposed() {
    // given
    var log: [String] = []
    // when
    _ = Single.just(1).subscribe(
      onSuccess: { log.append("success \($0)") }, onFailure: { _ in log.append("failure") },
      onDisposed: { log.append("disposed") })
    _ = Single<Int>.error(TestError(2)).subscribe(
      onSuccess: { log.append("success \($0)") },
      onFailure: { log.append("failure \(($0 as? TestError)?.id ?? 0)") },
      onDisposed: { log.append("disposed") })
    // then
    XCTAssertEqual(log, ["success 1", "disposed", "failure 2", "disposed"])
  }

  func test_singleSubscribeWith_holdsTheObjectWeakly() {
    // given
    final class Owner { var values: [Int] = [] }
    let owner = Owner()
    // when
    _ = Single.just(3).subscribe(
      with: owner, onSuccess: { owner, value in owner.values.append(value) })
    // then
    XCTAssertEqual(owner.values, [3])
  }

  func test_asSingle_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
    // when
    let oneResult = scheduler.start { one.asSingle().asObservable() }
    let emptyScheduler = TestScheduler(initialClock: 0)
    let empty = emptyScheduler.createHotObservable([.completed(250, Int.self)])
    let emptyResult = emptyScheduler.start { empty.asSingle().asObservable() }
    let twoScheduler = TestScheduler(initialClock: 0)
    let two = twoScheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
    let twoResult = twoScheduler.start { two.asSingle().asObservable() }
    // then
    XCTAssertEqual(oneResult.events, [.next(250, 1), .completed(250)])
    XCTAssertEqual(one.subscriptions, [Subscription(200, 250)])
    XCTAssertEqual(emptyResult.events, [.error(250, RxError.noElements)])
    XCTAssertEqual(twoResult.events, [.error(220, RxError.moreThanOneElement)])
    XCTAssertEqual(two.subscriptions, [Subscription(200, 220)])
  }

  func test_singleMapAndFlatMap_chainRequests() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([.next(10, 2), .completed(10)])
    let second = scheduler.createColdObservable([.next(20, "x"), .completed(20)])
    // when
    let observer = scheduler.start {
      first.asSingle()
        .map { $0 * 10 }
        .flatMap { value in second.asSingle().map { "\($0)\(value)" } }
        .asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, "x20"), .completed(230)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 210)])
    XCTAssertEqual(second.subscriptions, [Subscription(210, 230)])
  }

  func test_singleFlatMapMaybeAndCompletable() {
    // given
    var completedSaves: [Int] = []
    // when
    let maybe = Single.just(1).flatMapMaybe { $0 > 0 ? Maybe.just($0 + 1) : .empty() }
    let completable = Single.just(5).flatMapCompletable { value in
      Completable.create { observer in
        completedSaves.append(value)
        observer(.completed)
        return Disposables.create()
      }
    }
    // then
    XCTAssertEqual(try maybe.asObservable().toBlocking().toArray(), [2])
    XCTAssertEqual(try completable.asObservable().toBlocking().toArray(), [])
    XCTAssertEqual(completedSaves, [5])
  }

  func test_singleCatchAndRetry_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
    let fallback = scheduler.createColdObservable([.next(5, 7), .completed(5)])
    // when
    let observer = scheduler.start {
      failing.asSingle().retry(2).catch { _ in fallback.asSingle() }.asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(225, 7), .completed(225)])
    XCTAssertEqual(failing.subscriptions, [Subscription(200, 210), Subscription(210, 220)])
    XCTAssertEqual(fallback.subscriptions, [Subscription(220, 225)])
  }

  func test_singleCatchAndReturn_replacesTheError() {
    // when
    let result = try? Single<Int>.error(TestError(1)).catchAndReturn(9).asObservable()
      .toBlocking().toArray()
    // then
    XCTAssertEqual(result, [9])
  }

  func test_singleTimeoutDelayAndObserveOn_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let slow = scheduler.createColdObservable([.next(50, 1), .completed(50)])
    // when
    let timedOut = scheduler.start {
      slow.asSingle().timeout(.seconds(20), scheduler: scheduler).asObservable()
    }
    let secondScheduler = TestScheduler(initialClock: 0)
    let fastOnSecond = secondScheduler.createColdObservable([.next(5, 2), .completed(5)])
    let delayed = secondScheduler.start {
      fastOnSecond.asSingle().delay(.seconds(10), scheduler: secondScheduler)
        .observe(on: secondScheduler).subscribe(on: secondScheduler).asObservable()
    }
    // then
    XCTAssertEqual(timedOut.events, [.error(220, RxError.timeout)])
    XCTAssertEqual(slow.subscriptions, [Subscription(200, 220)])
    // subscribe(on:) at 201 (TestScheduler runs immediate work one tick later), the element
    // at 206, delayed to 216, observed on the scheduler at 217; the completion, also due at
    // 216, gets its own action in `delay` (217) and in `observe(on:)` (218), as in RxSwift.
    XCTAssertEqual(delayed.events.map(\.time), [217, 218])
    XCTAssertEqual(delayed.events.first?.value.element, 2)
  }

  func test_singleDo_runsSideEffectsAroundTheElement() {
    // given
    var log: [String] = []
    // when
    _ = Single.just(1)
      .do(
        onSuccess: { log.append("onSuccess \($0)") }, afterSuccess: { log.append("after \($0)") },
        onSubscribe: { log.append("subscribe") }, onSubscribed: { log.append("subscribed") },
        onDispose: { log.append("dispose") }
      )
      .subscribe(onSuccess: { log.append("value \($0)") })
    // then: `onSubscribed` and `onDispose` come after the element; their relative order is
    // `do`'s own business (tested with `do`).
    XCTAssertEqual(Array(log.prefix(4)), ["subscribe", "onSuccess 1", "value 1", "after 1"])
    XCTAssertEqual(Set(log.dropFirst(4)), ["subscribed", "dispose"])
  }

  func test_singleZip_pairsTheResults_andAnErrorFailsIt() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.next(10, 1), .completed(10)])
    let b = scheduler.createColdObservable([.next(30, "b"), .completed(30)])
    // when
    let observer = scheduler.start {
      Single.zip(a.asSingle(), b.asSingle()) { "\($0)\($1)" }.asObservable()
    }
    let pair = try? Single.zip(Single.just(1), Single.just("x")).asObservable().toBlocking()
      .single()
    let all = try? Single.zip([Single.just(1), .just(2), .just(3)]).asObservable().toBlocking()
      .single()
    let none = try? Single<[Int]>.zip([Single<Int>]()).asObservable().toBlocking().single()
    let failed = Single.zip(Single.just(1), Single<Int>.error(TestError(4)))
      .asObservable().toBlocking().materialize()
    // then
    XCTAssertEqual(observer.events, [.next(230, "1b"), .completed(230)])
    XCTAssertEqual(pair?.0, 1)
    XCTAssertEqual(pair?.1, "x")
    XCTAssertEqual(all, [1, 2, 3])
    XCTAssertEqual(none, [])
    XCTAssertNotNil(failed.error)
  }

  func test_singleAsMaybeAndAsCompletable() {
    // when
    let maybe = try? Single.just(4).asMaybe().asObservable().toBlocking().toArray()
    let completable = Single.just(4).asCompletable().asObservable().toBlocking().materialize()
    // then
    XCTAssertEqual(maybe, [4])
    XCTAssertTrue(completable.elements.isEmpty)
    XCTAssertNil(completable.error)
  }

  func test_singleDeferred_runsTheFactoryPerSubscription() {
    // given
    var made = 0
    let single = Single<Int>.deferred {
      made += 1
      return .just(made)
    }
    // when
    let first = try? single.asObservable().toBlocking().single()
    let second = try? single.asObservable().toBlocking().single()
    // then
    XCTAssertEqual(first, 1)
    XCTAssertEqual(second, 2)
  }

  func test_observableFlatMap_acceptsSingles() {
    // given
    func fetch(_ id: Int) -> Single<String> { .just("item \(id)") }
    // when
    let items = try? Observable.of(1, 2).flatMap { fetch($0) }.toBlocking().toArray()
    let latest = try? Observable.of(1, 2).flatMapLatest { fetch($0).asObservable() }
      .toBlocking().toArray()
    // then
    XCTAssertEqual(items, ["item 1", "item 2"])
    XCTAssertEqual(latest, ["item 1", "item 2"])
  }

  func test_singleTimer_emitsZeroAfterTheDueTime() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start {
      Single<Int>.timer(.seconds(30), scheduler: scheduler).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, 0), .completed(230)])
  }
}

extension MaterializedSequenceResult {
  /// The elements received, however the sequence ended.
  var elements: [Element] {
    switch self {
    case .completed(let elements), .failed(let elements, _): return elements
    }
  }

  /// The error the sequence failed with, if it failed.
  var error: Swift.Error? {
    if case .failed(_, let error) = self { return error }
    return nil
  }
}
