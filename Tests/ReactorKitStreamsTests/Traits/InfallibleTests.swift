import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class InfallibleTests: ResourceTestCase {
  func test_asInfallibleOnErrorJustReturn_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .error(230, TestError(1)),
    ])
    // when
    let observer = scheduler.start {
      source.asInfallible(onErrorJustReturn: -1).map { $0 * 10 }.asObservable()
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(210, 10), .next(220, 20), .next(230, -10), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_asInfallibleOnErrorFallbackToAndRecover() {
    // given
    var recovered: [Int] = []
    // when
    let fallback = try? Observable<Int>.error(TestError(1))
      .asInfallible(onErrorFallbackTo: .of(7, 8)).toBlocking().toArray()
    let recover = try? Observable<Int>.error(TestError(2))
      .asInfallible(onErrorRecover: { error in
        recovered.append((error as? TestError)?.id ?? 0)
        return .just(0)
      })
      .toBlocking().toArray()
    // then
    XCTAssertEqual(fallback, [7, 8])
    XCTAssertEqual(recover, [0])
    XCTAssertEqual(recovered, [2])
  }

  func test_infallibleCreateAndSubscribe() {
    // given
    var log: [String] = []
    let infallible = Infallible<Int>.create { observer in
      observer(.next(1))
      observer(.completed)
      observer(.next(2))
      return Disposables.create { log.append("cleanup") }
    }
    // when
    _ = infallible.subscribe(
      onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") },
      onDisposed: { log.append("disposed") })
    // then
    XCTAssertEqual(log.prefix(2), ["next 1", "completed"])
    XCTAssertEqual(Set(log.dropFirst(2)), ["cleanup", "disposed"])
  }

  func test_infallibleBind_toRelaysAndObservers() {
    // given
    let publish = PublishRelay<Int>()
    let behavior = BehaviorRelay<Int?>(value: nil)
    let replay = ReplayRelay<Int>.createUnbound()
    var seen: [Int] = []
    let subscription = publish.subscribe(onNext: { seen.append($0) })
    // when
    let bindings = [
      Infallible.of(1, 2).bind(to: publish),
      Infallible.of(3).bind(to: behavior),
      Infallible.of(4, 5).bind(to: replay),
    ]
    // then
    XCTAssertEqual(seen, [1, 2])
    XCTAssertEqual(behavior.value, 3)
    XCTAssertEqual(try replay.take(2).toBlocking().toArray(), [4, 5])
    subscription.dispose()
    bindings.forEach { $0.dispose() }
  }

  func test_infallibleOperators_marbles() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(212, 2), .next(230, 3), .next(231, 3), .completed(300),
    ])
    // when
    let observer = scheduler.start {
      source.asInfallible(onErrorJustReturn: 0)
        .debounce(.seconds(5), scheduler: scheduler)
        .distinctUntilChanged()
        .scan(0, accumulator: +)
        .startWith(-1)
        .asObservable()
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(200, -1), .next(217, 2), .next(236, 5), .completed(300)])
  }

  func test_infallibleFlatMapLatestAndCombining() {
    // when
    let flat = try? Infallible.of(1, 2).flatMap { Infallible.of($0, $0 * 10) }.toBlocking()
      .toArray()
    let combined = try? Infallible.combineLatest(Infallible.just(1), Infallible.just("a"))
      .map { "\($0)\($1)" }.toBlocking().toArray()
    let zipped = try? Infallible.zip(Infallible.of(1, 2), Infallible.of(3, 4)) { $0 + $1 }
      .toBlocking().toArray()
    // then
    XCTAssertEqual(flat?.sorted(), [1, 2, 10, 20])
    XCTAssertEqual(combined, ["1a"])
    XCTAssertEqual(zipped, [4, 6])
  }
}
