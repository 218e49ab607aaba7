import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class SignalTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    // Main-scheduler work runs at once only when nothing is queued on the main queue.
    drainMainQueue()
  }

  func test_signal_doesNotReplayToLateObservers() {
    // given
    let relay = PublishRelay<Int>()
    let signal = relay.asSignal()
    var first: [Int] = []
    var second: [Int] = []
    // when
    let a = signal.emit(onNext: { first.append($0) })
    relay.accept(1)
    let b = signal.emit(onNext: { second.append($0) })
    relay.accept(2)
    // then
    XCTAssertEqual(first, [1, 2])
    XCTAssertEqual(second, [2])
    a.dispose()
    b.dispose()
  }

  func test_asSignalOnErrorJustReturn_replacesTheError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    var observer: TestableObserver<Int>!
    // when
    SharingScheduler.mock(scheduler: scheduler) {
      observer = scheduler.start { source.asSignal(onErrorJustReturn: 0).asObservable() }
    }
    // then
    XCTAssertEqual(observer.events, [.next(211, 1), .next(221, 0), .completed(221)])
  }

  func test_asSignalOnErrorSignalWithAndRecover() {
    // given
    var received: [Int] = []
    var errors: [Int] = []
    // when
    let a = Observable<Int>.error(TestError(1))
      .asSignal(onErrorSignalWith: .just(5))
      .emit(onNext: { received.append($0) })
    let b = Observable<Int>.error(TestError(2))
      .asSignal(onErrorRecover: { error in
        errors.append((error as? TestError)?.id ?? 0)
        return .empty()
      })
      .emit(onNext: { received.append($0) })
    runMainLoopUntil { received == [5] && errors == [2] }
    // then
    XCTAssertEqual(received, [5])
    XCTAssertEqual(errors, [2])
    a.dispose()
    b.dispose()
  }

  func test_emit_toRelaysAndObservers() {
    // given
    let behavior = BehaviorRelay(value: 0)
    let optionalBehavior = BehaviorRelay<Int?>(value: nil)
    let publish = PublishRelay<Int>()
    let optionalPublish = PublishRelay<Int?>()
    var published: [Int?] = []
    var observed: [Event<Int?>] = []
    let watchers = [
      publish.subscribe(onNext: { published.append($0) }),
      optionalPublish.subscribe(onNext: { published.append($0) }),
    ]
    let signal = Signal.just(9)
    // when
    let subscriptions = [
      signal.emit(to: behavior),
      signal.emit(to: optionalBehavior),
      signal.emit(to: publish),
      signal.emit(to: optionalPublish),
      signal.emit(to: AnyObserver<Int?> { observed.append($0) }),
      signal.emit(),
    ]
    // Main-scheduler delivery is synchronous only while the main queue is idle; other
    // threads (earlier tests' leftovers) may have queued work, so wait for delivery.
    runMainLoopUntil { observed.count == 2 && published.count == 2 }
    // then
    XCTAssertEqual(behavior.value, 9)
    XCTAssertEqual(optionalBehavior.value, 9)
    XCTAssertEqual(published, [9, 9])
    XCTAssertEqual(observed, [.next(9), .completed])
    (subscriptions + watchers).forEach { $0.dispose() }
  }

  func test_signal_deliversOnTheMainQueue() {
    // given
    let done = expectation(description: "delivered")
    let onMain = LockedValues<Bool>()
    let relay = PublishRelay<Int>()
    let subscription = relay.asSignal().emit(onNext: { _ in
      onMain.append(MainScheduler.isMainThread)
      done.fulfill()
    })
    // when
    DispatchQueue.global().async { relay.accept(1) }
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(onMain.all, [true])
  }
}
