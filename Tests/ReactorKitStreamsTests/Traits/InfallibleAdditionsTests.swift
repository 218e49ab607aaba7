import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// RxSwift 6's later `Infallible` API: non-throwing `values`, `combineLatest` of 3 to 8,
/// relays' `asInfallible()`, `asDriver()` and the curried `bind(to:)`.
final class InfallibleAdditionsTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    drainMainQueue()
  }

  func test_infallibleValues_iteratesWithoutTry() async {
    // given
    var received: [Int] = []
    // when
    for await value in Infallible.of(1, 2, 3).values {
      received.append(value)
    }
    // then
    XCTAssertEqual(received, [1, 2, 3])
  }

  func test_infallibleValues_breakingDisposesSubscription() async {
    // given
    let relay = PublishRelay<Int>()
    let disposed = expectation(description: "disposed")
    let source = relay.asInfallible().do(
      onSubscribed: { relay.accept(1) }, onDispose: { disposed.fulfill() })
    // when
    for await value in source.values {
      XCTAssertEqual(value, 1)
      break
    }
    // then
    await fulfillment(of: [disposed], timeout: 5)
  }

  func test_infallibleCombineLatest_threeAndEightSources() throws {
    // given
    let a = BehaviorRelay(value: 1)
    let b = BehaviorRelay(value: "b")
    let c = BehaviorRelay(value: 3.0)
    var three: [String] = []
    var eight: [Int] = []
    // when
    let first = Infallible.combineLatest(a.asInfallible(), b.asInfallible(), c.asInfallible()) {
      "\($0)\($1)\($2)"
    }.subscribe(onNext: { three.append($0) })
    let sources = (1...8).map { Infallible.just($0) }
    let second = Infallible.combineLatest(
      sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6],
      sources[7]
    ) { $0 + $1 + $2 + $3 + $4 + $5 + $6 + $7 }.subscribe(onNext: { eight.append($0) })
    a.accept(2)
    let tuple = try Infallible.combineLatest(
      Infallible.just(1), Infallible.just("x"), Infallible.just(true)
    ).asObservable().toBlocking(timeout: 1).single()
    first.dispose()
    second.dispose()
    // then
    XCTAssertEqual(three, ["1b3.0", "2b3.0"])
    XCTAssertEqual(eight, [36])
    XCTAssertEqual(tuple.0, 1)
    XCTAssertEqual(tuple.1, "x")
    XCTAssertEqual(tuple.2, true)
  }

  func test_relaysAsInfallible_forwardTheirValues() {
    // given
    let publish = PublishRelay<Int>()
    let behavior = BehaviorRelay(value: 0)
    let replay = ReplayRelay<Int>.create(bufferSize: 1)
    replay.accept(9)
    var received: [Int] = []
    let bag = DisposeBag()
    // when
    publish.asInfallible().subscribe(onNext: { received.append($0) }).disposed(by: bag)
    behavior.asInfallible().subscribe(onNext: { received.append($0) }).disposed(by: bag)
    replay.asInfallible().subscribe(onNext: { received.append($0) }).disposed(by: bag)
    publish.accept(1)
    behavior.accept(2)
    replay.accept(3)
    // then
    XCTAssertEqual(received, [0, 9, 1, 2, 3])
  }

  func test_infallibleAsDriver_deliversOnSharingSchedulerAndReplays() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    var first: TestableObserver<Int>!
    let late = scheduler.createObserver(Int.self)
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let driver = source.asInfallible(onErrorJustReturn: 0).asDriver()
      scheduler.scheduleAt(230) { _ = driver.asObservable().subscribe(late) }
      first = scheduler.start { driver.asObservable() }
    }
    // then
    XCTAssertEqual(first.events, [.next(211, 1), .next(221, 2), .completed(301)])
    XCTAssertEqual(late.events, [.next(230, 2), .completed(301)])
  }

  func test_infallibleBind_curriedBinder() {
    // given
    let infallible = Infallible.of(1, 2)
    var received: [String] = []
    // when
    let result = infallible.bind(
      to: { source in
        { (prefix: String) in
          source.subscribe(onNext: { received.append("\(prefix)\($0)") })
        }
      }, curriedArgument: "v")
    let count = infallible.bind(to: { _ in 42 })
    // then
    XCTAssertEqual(received, ["v1", "v2"])
    XCTAssertEqual(count, 42)
    result.dispose()
  }
}
