import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Delivery of drivers and signals on the main thread stays synchronous (RxSwift 6: each
/// shared sequence gets its own `MainScheduler()` from `SharingScheduler.make`).
final class SharingSchedulerTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    drainMainQueue()
  }

  override func tearDown() {
    drainMainQueue()
    super.tearDown()
  }

  func test_nestedDrives_deliverEverythingAtOnce() {
    // given
    let clock = TestScheduler(initialClock: 0)
    let observer = clock.createObserver(String.self)
    let outer = BehaviorRelay(value: "initial")
    let inner = BehaviorRelay(value: "first")
    let innerSubscription = SerialDisposable()
    // when
    let outerSubscription = outer.asDriver().drive(onNext: { value in
      observer.onNext(value)
      guard value == "initial" else { return }
      // A second driver delivers while the first one is delivering.
      innerSubscription.disposable = inner.asDriver().drive(onNext: { observer.onNext($0) })
      inner.accept("second")
    })
    outer.accept("third")
    outerSubscription.dispose()
    innerSubscription.dispose()
    // then
    XCTAssertEqual(
      observer.events,
      [.next(0, "initial"), .next(0, "first"), .next(0, "second"), .next(0, "third")])
  }

  func test_driveAfterNestedDelivery_isSynchronous() {
    // given
    let clock = TestScheduler(initialClock: 0)
    let observer = clock.createObserver(Int.self)
    let relay = BehaviorRelay(value: 0)
    let bag = DisposeBag()
    Driver.just(1).drive(onNext: { _ in
      Driver.just(2).drive(onNext: { relay.accept($0) }).disposed(by: bag)
    }).disposed(by: bag)
    // when
    Driver.just(1).drive(observer).disposed(by: bag)
    // then
    XCTAssertEqual(relay.value, 2)
    XCTAssertEqual(observer.events, [.next(0, 1), .completed(0)])
  }

  func test_mainSchedulerInstance_isNotMadeAsynchronousByADriversQueuedWork() {
    // given
    let subject = PublishSubject<Int>()
    let received = LockedValues<Int>()
    let subscription = subject.asDriver(onErrorJustReturn: 0)
      .drive(onNext: { received.append($0) })
    // An element from another thread is queued on the main queue for the driver.
    let sent = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      subject.onNext(1)
      sent.signal()
    }
    XCTAssertEqual(sent.wait(timeout: .now() + 5), .success)
    var ran = false
    // when
    let scheduled = MainScheduler.instance.schedule(()) { _ in
      ran = true
      return Disposables.create()
    }
    // then
    XCTAssertTrue(ran)
    runMainLoopUntil { received.all == [1] }
    subscription.dispose()
    scheduled.dispose()
  }

  func test_make_givesEachSequenceItsOwnMainScheduler() {
    // when
    let first = SharingScheduler.make() as? MainScheduler
    let second = SharingScheduler.make() as? MainScheduler
    // then
    XCTAssertNotNil(first)
    XCTAssertFalse(first === second)
    XCTAssertFalse(first === MainScheduler.instance)
  }

  func test_mock_restoresTheFactoryEvenWhenTheActionThrows() {
    // given
    let clock = TestScheduler(initialClock: 0)
    // when
    XCTAssertThrowsError(
      try SharingScheduler.mock(scheduler: clock) {
        XCTAssertTrue(SharingScheduler.make() as? TestScheduler === clock)
        throw TestError(1)
      })
    // then
    XCTAssertTrue(SharingScheduler.make() is MainScheduler)
  }

  func test_mockedDriver_deliversInVirtualTime() {
    // given
    let clock = TestScheduler(initialClock: 0)
    let source = clock.createHotObservable([.next(210, 1), .completed(220)])
    var observer: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: clock) {
      let driver = source.asDriver(onErrorJustReturn: 0)
      observer = clock.start { driver }
    }
    // then
    XCTAssertEqual(observer.events, [.next(211, 1), .completed(221)])
  }
}
