import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class PublishSubjectTests: ResourceTestCase {
  func test_publishSubject_reentrantElementsRunAfterTheCurrentOneForEveryObserver() {
    // given
    let subject = PublishSubject<Int>()
    var log: [String] = []
    let first = subject.subscribe(onNext: { value in
      log.append("a\(value)")
      if value < 2 { subject.onNext(value + 1) }
    })
    let second = subject.subscribe(onNext: { value in log.append("b\(value)") })
    // when
    subject.onNext(0)
    // then
    XCTAssertEqual(log, ["a0", "b0", "a1", "b1", "a2", "b2"])
    first.dispose()
    second.dispose()
  }

  func test_publishSubject_reentrantCompletionEndsAfterTheCurrentElement() {
    // given
    let subject = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let first = subject.subscribe(onNext: { _ in subject.onCompleted() })
    let second = subject.subscribe { events.append($0) }
    // when
    subject.onNext(1)
    subject.onNext(2)
    // then
    XCTAssertEqual(events, [.next(1), .completed])
    XCTAssertFalse(subject.hasObservers)
    first.dispose()
    second.dispose()
  }

  func test_publishSubject_disposingInsideOnNextStopsLaterElements() {
    // given
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var subscription: Disposable?
    subscription = subject.subscribe(onNext: { value in
      received.append(value)
      subscription?.dispose()
      subscription = nil
    })
    // when
    subject.onNext(1)
    subject.onNext(2)
    // then
    XCTAssertEqual(received, [1])
    XCTAssertFalse(subject.hasObservers)
  }

  func test_publishSubject_subscribeClosuresReceiveTerminalEventsOnce() {
    // given
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var errors = 0
    var disposals = 0
    _ = subject.subscribe(
      onNext: { received.append($0) }, onError: { _ in errors += 1 },
      onDisposed: { disposals += 1 })
    // when
    subject.onNext(1)
    subject.onError(TestError(1))
    subject.onNext(2)
    // then
    XCTAssertEqual(received, [1])
    XCTAssertEqual(errors, 1)
    XCTAssertEqual(disposals, 1)
  }

  func test_behaviorSubject_replaysTheLatestValueToNewSubscribers() throws {
    // given
    let subject = BehaviorSubject(value: 0)
    subject.onNext(1)
    subject.onNext(2)
    var received: [Int] = []
    // when
    let subscription = subject.subscribe(onNext: { received.append($0) })
    subject.onNext(3)
    // then
    XCTAssertEqual(received, [2, 3])
    XCTAssertEqual(try subject.value(), 3)
    subscription.dispose()
  }
}
