import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class ActionSubjectTests: ResourceTestCase {
  func test_actionSubject_forwardsElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let subject = ActionSubject<Int>()
    let source = scheduler.createHotObservable([.next(100, 1), .next(200, 2), .next(300, 3)])
    let binding = source.subscribe(subject)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
      subject.asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(100, 1), .next(200, 2), .next(300, 3)])
    binding.dispose()
  }

  func test_actionSubject_ignoresErrorAndKeepsForwarding() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let subject = ActionSubject<Int>()
    let source = scheduler.createHotObservable([
      .next(100, 1), .error(200, TestError()), .next(300, 3),
    ])
    let binding = source.subscribe(subject)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
      subject.asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(100, 1), .next(300, 3)])
    binding.dispose()
  }

  func test_actionSubject_ignoresCompletionAndKeepsForwarding() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let subject = ActionSubject<Int>()
    let source = scheduler.createHotObservable([.next(100, 1), .completed(200), .next(300, 3)])
    let binding = source.subscribe(subject)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) {
      subject.asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(100, 1), .next(300, 3)])
    binding.dispose()
  }

  func test_actionSubject_disposedSubscriberReceivesNothingMore() {
    // given
    let subject = ActionSubject<Int>()
    var first: [Int] = []
    var second: [Int] = []
    let firstSubscription = subject.subscribe(onNext: { first.append($0) })
    let secondSubscription = subject.subscribe(onNext: { second.append($0) })
    subject.onNext(1)
    // when
    firstSubscription.dispose()
    subject.onNext(2)
    // then
    XCTAssertEqual(first, [1])
    XCTAssertEqual(second, [1, 2])
    secondSubscription.dispose()
  }

  func test_actionSubject_subscriptionMadeDuringDeliveryMissesTheElementInFlight() {
    // given
    let bag = DisposeBag()
    var late: [Int] = []
    var subject: ActionSubject<Int>?
    subject = ActionSubject(
      primary: { value in
        guard value == 1 else { return }
        subject?.subscribe(onNext: { late.append($0) }).disposed(by: bag)
      })
    // when
    subject?.onNext(1)
    subject?.onNext(2)
    // then
    XCTAssertEqual(late, [2])
    subject = nil
  }

  func test_actionSubject_reactorReceivesElementsBeforeSubscribers() {
    // given
    var order: [String] = []
    let subject = ActionSubject<Int>(primary: { order.append("reactor \($0)") })
    let subscription = subject.subscribe(onNext: { order.append("subscriber \($0)") })
    // when
    subject.onNext(1)
    // then
    XCTAssertEqual(order, ["reactor 1", "subscriber 1"])
    subscription.dispose()
  }

  func test_actionSubject_asObservableIsAlwaysTheSameObject() {
    // given
    let subject = ActionSubject<Int>()
    // when
    let observable = subject.asObservable()
    // then
    XCTAssertTrue(observable === subject.asObservable())
    XCTAssertTrue(subject.asObserver() === subject)
  }

  func test_actionSubject_concurrentSendsAreDeliveredSeriallyAndCompletely() {
    // given
    let subject = ActionSubject<Int>()
    let overlap = OverlapDetector()
    let count = Locked(0)
    let subscription = subject.subscribe(onNext: { _ in
      overlap.visit { count.withLock { $0 += 1 } }
    })
    // when
    runConcurrently(threads: 8) { _ in
      for value in 0..<1_000 { subject.onNext(value) }
    }
    // then
    XCTAssertEqual(count.current, 8_000)
    XCTAssertEqual(overlap.maximumOverlap, 1)
    subscription.dispose()
  }
}
