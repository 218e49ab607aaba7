import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DriverTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    // Main-scheduler work runs at once only when nothing is queued on the main queue.
    drainMainQueue()
  }

  func test_asDriverOnErrorJustReturn_replacesErrorAndDeliversOnTheScheduler() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .error(230, TestError(1)),
    ])
    var observer: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      observer = scheduler.start { source.asDriver(onErrorJustReturn: -1).asObservable() }
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(211, 1), .next(221, 2), .next(231, -1), .completed(231)])
    // The source's subscription ends at its error, as RxSwift's `asObservable()` ends it.
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_asDriverOnErrorDriveWith_continuesWithTheFallback() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
    var observer: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      let fallback = Driver.of(7, 8)
      observer = scheduler.start { source.asDriver(onErrorDriveWith: fallback).asObservable() }
    }
    // then
    XCTAssertEqual(observer.events.compactMap { $0.value.element }, [1, 7, 8])
    XCTAssertTrue(observer.events.last?.value.isCompleted ?? false)
  }

  func test_asDriverOnErrorRecover_receivesTheError() {
    // given
    var recovered: [Int] = []
    var received: [Int] = []
    // when
    let subscription = Observable<Int>.error(TestError(5))
      .asDriver(onErrorRecover: { error in
        recovered.append((error as? TestError)?.id ?? 0)
        return .just(0)
      })
      .drive(onNext: { received.append($0) })
    runMainLoopUntil { received == [0] }
    // then
    XCTAssertEqual(recovered, [5])
    XCTAssertEqual(received, [0])
    subscription.dispose()
  }

  func test_driver_replaysTheLatestElementAndSharesOneSubscription() {
    // given
    var subscriptions = 0
    let subject = PublishSubject<Int>()
    let driver = Observable<Int>.deferred {
      subscriptions += 1
      return subject.asObservable()
    }.asDriver(onErrorJustReturn: 0)
    var first: [Int] = []
    var second: [Int] = []
    // when
    let a = driver.drive(onNext: { first.append($0) })
    subject.onNext(1)
    subject.onNext(2)
    let b = driver.drive(onNext: { second.append($0) })
    subject.onNext(3)
    // then
    XCTAssertEqual(first, [1, 2, 3])
    XCTAssertEqual(second, [2, 3])
    XCTAssertEqual(subscriptions, 1)
    a.dispose()
    b.dispose()
    XCTAssertFalse(subject.hasObservers)
  }

  func test_driver_deliversBackgroundEventsOnTheMainQueue() {
    // given
    let done = expectation(description: "completed")
    let onMain = LockedValues<Bool>()
    let driver = Observable.of(1, 2, 3)
      .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
      .asDriver(onErrorJustReturn: 0)
    // when
    let subscription = driver.drive(
      onNext: { _ in onMain.append(MainScheduler.isMainThread) },
      onCompleted: { done.fulfill() })
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(onMain.all, [true, true, true])
  }

  func test_driverJust_isSynchronousOnTheMainThread() {
    // given
    var received: [String] = []
    // when
    let subscription = Driver.just("a").drive(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, ["a"])
    subscription.dispose()
  }

  func test_driverFactories_emptyNeverFromAndDeferred() {
    // given
    func run(_ make: @escaping () -> Driver<Int>) -> [Recorded<Event<Int>>] {
      let scheduler = TestScheduler(initialClock: 0)
      var observer: TestableObserver<Int>!
      SharingScheduler.mock(scheduler: scheduler) {
        observer = scheduler.start { make().asObservable() }
      }
      return observer.events
    }
    // when
    let empty = run { .empty() }
    let never = run { .never() }
    let from = run { .from([1, 2]) }
    let optional = run { .from(optional: 3) }
    let deferred = run { .deferred { .just(4) } }
    // then
    XCTAssertEqual(empty, [.completed(201)])
    XCTAssertEqual(never, [])
    XCTAssertEqual(from, [.next(201, 1), .next(202, 2), .completed(203)])
    XCTAssertEqual(optional, [.next(201, 3), .completed(202)])
    XCTAssertEqual(deferred, [.next(201, 4), .completed(201)])
  }

  func test_driverOperators_mapFilterCompactMapFlatMapLatest() {
    // given
    let relay = BehaviorRelay(value: 1)
    var received: [String] = []
    let driver = relay.asDriver()
      .filter { $0 != 2 }
      .map { $0 * 10 }
      .compactMap { $0 == 30 ? nil : $0 }
      .flatMapLatest { value in Driver.just("v\(value)") }
    // when
    let subscription = driver.drive(onNext: { received.append($0) })
    for value in 2...4 { relay.accept(value) }
    runMainLoopUntil { received.count >= 2 }
    // then
    XCTAssertEqual(received, ["v10", "v40"])
    subscription.dispose()
  }

  func test_drive_relaysAndObservers() {
    // given
    let behavior = BehaviorRelay(value: 0)
    let optional = BehaviorRelay<Int?>(value: nil)
    let publish = PublishRelay<Int>()
    var published: [Int] = []
    var observed: [Event<Int>] = []
    let publishSubscription = publish.subscribe(onNext: { published.append($0) })
    let driver = Driver.of(1, 2)
    // when
    let subscriptions = [
      driver.drive(behavior),
      driver.drive(optional),
      driver.drive(publish),
      driver.drive(AnyObserver { observed.append($0) }),
      driver.drive(),
    ]
    runMainLoopUntil { observed.count == 3 && published.count == 2 }
    // then
    XCTAssertEqual(behavior.value, 2)
    XCTAssertEqual(optional.value, 2)
    XCTAssertEqual(published, [1, 2])
    XCTAssertEqual(observed, [.next(1), .next(2), .completed])
    subscriptions.forEach { $0.dispose() }
    publishSubscription.dispose()
  }

  func test_driveWith_holdsTheObjectWeakly() {
    // given
    var owner: Owner? = Owner()
    let relay = BehaviorRelay(value: 1)
    let subscription = relay.asDriver().drive(
      with: owner!, onNext: { owner, value in owner.values.append(value) })
    // when
    relay.accept(2)
    // Delivery is synchronous only while the main queue is idle; wait for it.
    runMainLoopUntil { owner?.values.count == 2 }
    let values = owner?.values
    weak let weakOwner = owner
    owner = nil
    relay.accept(3)
    drainMainQueue()
    // then
    XCTAssertEqual(values, [1, 2])
    XCTAssertNil(weakOwner)
    subscription.dispose()
  }

  func test_mock_restoresTheMainScheduler() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      XCTAssertTrue(DriverSharingStrategy.scheduler is TestScheduler)
    }
    // then
    XCTAssertTrue(DriverSharingStrategy.scheduler is MainScheduler)
  }
}

private final class Owner {
  var values: [Int] = []
}

final class SharedSequenceOperatorTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    // Main-scheduler work runs at once only when nothing is queued on the main queue.
    drainMainQueue()
  }

  func test_driverOperators_distinctStartWithScanDoAndMerge() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(210, 1), .next(220, 1), .next(230, 2), .completed(300),
    ])
    let second = scheduler.createHotObservable([.next(215, 10), .completed(300)])
    var sideEffects: [Int] = []
    var observer: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      observer = scheduler.start {
        Driver.merge(
          first.asDriver(onErrorJustReturn: 0).distinctUntilChanged(),
          second.asDriver(onErrorJustReturn: 0)
        )
        .do(onNext: { sideEffects.append($0) })
        .scan(0, accumulator: +)
        .startWith(-1)
        .asObservable()
      }
    }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(200, -1), .next(211, 1), .next(216, 11), .next(231, 13), .completed(301)])
    XCTAssertEqual(sideEffects, [1, 10, 2])
  }

  func test_signalOperators_distinctByKeyAndComparerAndFlatMaps() {
    // given
    let relay = PublishRelay<String>()
    var byKey: [String] = []
    var byComparer: [String] = []
    var byKeyPath: [String] = []
    var flat: [Int] = []
    var first: [Int] = []
    let signal = relay.asSignal()
    let subscriptions = [
      signal.distinctUntilChanged { $0.count }.emit(onNext: { byKey.append($0) }),
      signal.distinctUntilChanged { $0.first == $1.first }.emit(onNext: { byComparer.append($0) }),
      signal.distinctUntilChanged(at: \.count).emit(onNext: { byKeyPath.append($0) }),
      signal.flatMap { Signal.just($0.count) }.emit(onNext: { flat.append($0) }),
      signal.flatMapFirst { Signal.just($0.count) }.emit(onNext: { first.append($0) }),
    ]
    // when
    for value in ["a", "b", "cc", "cd", "e"] { relay.accept(value) }
    runMainLoopUntil { flat.count == 5 && first.count == 5 && byKey.count == 3 }
    // then
    XCTAssertEqual(byKey, ["a", "cc", "e"])
    XCTAssertEqual(byComparer, ["a", "b", "cc", "e"])
    XCTAssertEqual(byKeyPath, ["a", "cc", "e"])
    XCTAssertEqual(flat, [1, 1, 2, 2, 1])
    // Each signal has its own main scheduler (SharingScheduler.make), so `Signal.just`
    // completes at once on the main thread and flatMapFirst takes every element.
    XCTAssertEqual(first, [1, 1, 2, 2, 1])
    subscriptions.forEach { $0.dispose() }
  }
}
