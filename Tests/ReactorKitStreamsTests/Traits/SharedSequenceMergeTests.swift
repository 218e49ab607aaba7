import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// RxCocoa's cross-strategy operators (a `Driver` flat-mapped into `Signal`s), `merge`,
/// `merge(maxConcurrent:)` and the public `asSharedSequence(sharingStrategy:onError…:)`.
final class SharedSequenceMergeTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    drainMainQueue()
  }

  func test_driverFlatMapsIntoSignal() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
    var latest: TestableObserver<Int>!
    var merged: TestableObserver<Int>!
    var first: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let driver = source.asDriver(onErrorJustReturn: 0)
      let toLatest: Signal<Int> = driver.flatMapLatest { Signal.just($0 * 10) }
      let toMerged: Signal<Int> = driver.flatMap { Signal.just($0 * 100) }
      let toFirst: Signal<Int> = driver.flatMapFirst { Signal.just($0 + 1) }
      latest = scheduler.createObserver(Int.self)
      merged = scheduler.createObserver(Int.self)
      first = scheduler.createObserver(Int.self)
      scheduler.scheduleAt(200) {
        _ = toLatest.asObservable().subscribe(latest)
        _ = toMerged.asObservable().subscribe(merged)
        _ = toFirst.asObservable().subscribe(first)
      }
      scheduler.start()
    }
    // then: the source hops to the mocked main scheduler, then each inner `just` does
    XCTAssertEqual(latest.events, [.next(212, 10), .next(222, 20), .completed(301)])
    XCTAssertEqual(merged.events, [.next(212, 100), .next(222, 200), .completed(301)])
    XCTAssertEqual(first.events, [.next(212, 2), .next(222, 3), .completed(301)])
  }

  func test_driverOfSignalsSwitchesAndMerges() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let outer = scheduler.createHotObservable([.next(210, 1), .next(240, 2), .completed(300)])
    let inner1 = scheduler.createHotObservable([
      .next(215, "a"), .next(245, "b"), .completed(300),
    ])
    let inner2 = scheduler.createHotObservable([.next(250, "c"), .completed(300)])
    var switched: TestableObserver<String>!
    var merged: TestableObserver<String>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let signals = [
        1: inner1.asSignal(onErrorJustReturn: ""), 2: inner2.asSignal(onErrorJustReturn: ""),
      ]
      let driver = outer.asDriver(onErrorJustReturn: 0).map { signals[$0]! }
      let latest: Signal<String> = driver.switchLatest()
      let all: Signal<String> = driver.merge()
      switched = scheduler.createObserver(String.self)
      merged = scheduler.createObserver(String.self)
      scheduler.scheduleAt(200) {
        _ = latest.asObservable().subscribe(switched)
        _ = all.asObservable().subscribe(merged)
      }
      scheduler.start()
    }
    // then
    XCTAssertEqual(switched.events.compactMap(\.value.element), ["a", "c"])
    XCTAssertEqual(switched.events.map(\.time), [216, 251, 301])
    XCTAssertEqual(merged.events.compactMap(\.value.element), ["a", "b", "c"])
    XCTAssertEqual(merged.events.map(\.time), [216, 246, 251, 301])
  }

  func test_mergeMaxConcurrent_waitsForACompletedInner() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let inner1 = scheduler.createColdObservable([.next(10, 1), .completed(30)])
    let inner2 = scheduler.createColdObservable([.next(5, 2), .completed(10)])
    var merged: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let drivers = [
        inner1.asDriver(onErrorJustReturn: 0), inner2.asDriver(onErrorJustReturn: 0),
      ]
      merged = scheduler.start {
        Driver.from(drivers).merge(maxConcurrent: 1).asObservable()
      }
    }
    // then: the second inner starts only once the first's completion arrived (one tick after
    // it, through the driver's scheduler; the first's own subscription ended at the completion)
    XCTAssertEqual(inner1.subscriptions.count, 1)
    XCTAssertEqual(
      inner2.subscriptions.map(\.subscribe), [inner1.subscriptions[0].unsubscribe + 1])
    XCTAssertEqual(merged.events.compactMap { $0.value.element }, [1, 2])
  }

  func test_asSharedSequence_withStrategyAndErrorHandling() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let failing = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    var justReturn: TestableObserver<Int>!
    var driveWith: TestableObserver<Int>!
    var recover: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let a: Driver<Int> = failing.asSharedSequence(
        sharingStrategy: DriverSharingStrategy.self, onErrorJustReturn: -1)
      let b: Signal<Int> = failing.asSharedSequence(
        sharingStrategy: SignalSharingStrategy.self, onErrorDriveWith: Signal.just(-2))
      let c = failing.asSharedSequence(
        sharingStrategy: SignalSharingStrategy.self,
        onErrorRecover: { _ in Signal.just(-3) })
      justReturn = scheduler.createObserver(Int.self)
      driveWith = scheduler.createObserver(Int.self)
      recover = scheduler.createObserver(Int.self)
      scheduler.scheduleAt(200) {
        _ = a.asObservable().subscribe(justReturn)
        _ = b.asObservable().subscribe(driveWith)
        _ = c.asObservable().subscribe(recover)
      }
      scheduler.start()
    }
    // then
    XCTAssertEqual(justReturn.events, [.next(211, 1), .next(221, -1), .completed(221)])
    XCTAssertEqual(driveWith.events.compactMap { $0.value.element }, [1, -2])
    XCTAssertEqual(recover.events.compactMap { $0.value.element }, [1, -3])
  }

  func test_driverWithUnretained_pairsAndCompletesOnceObjectFreed() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(230, 2), .next(240, 3), .completed(300),
    ])
    var owner: Owner? = Owner()
    weak let weakOwner = owner
    var observer: TestableObserver<String>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let driver = source.asDriver(onErrorJustReturn: 0).withUnretained(owner!)
        .map { object, value in "\(object.name)\(value)" }
      scheduler.scheduleAt(220) { owner = nil }
      observer = scheduler.start { driver.asObservable() }
    }
    // then
    XCTAssertNil(weakOwner)
    XCTAssertEqual(observer.events, [.next(211, "o1"), .completed(231)])
  }
}

private final class Owner {
  let name = "o"
}
