import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DebounceTests: ResourceTestCase {
  func test_debounce_elementsFartherApartThanDueTimeAllPass() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(240, 3), .next(270, 4), .next(300, 5), .completed(400),
    ])
    // when
    let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(230, 2), .next(260, 3), .next(290, 4), .next(320, 5), .completed(400)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
  }

  func test_debounce_burstKeepsOnlyTheLastElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, 3), .next(300, 4), .next(305, 5),
    ])
    // when
    let observer = scheduler.start { source.debounce(.seconds(20), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(250, 3), .next(325, 5)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 1000)])
  }

  func test_debounce_completionEmitsTheWaitingElementFirst() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 2), .next(240, 3), .next(270, 4), .next(300, 5), .completed(400),
    ])
    // when
    let observer = scheduler.start { source.debounce(.seconds(200), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(400, 5), .completed(400)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
  }

  func test_debounce_errorDropsTheWaitingElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 2), .next(240, 3), .error(250, TestError(1)),
    ])
    // when
    let observer = scheduler.start { source.debounce(.seconds(40), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.error(250, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250)])
  }

  func test_debounce_emptyAndNeverSources() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let empty = scheduler.createHotObservable([.next(150, 1), .completed(300)])
    let never = scheduler.createHotObservable([.next(150, 1)] as [Recorded<Event<Int>>])
    // when
    let emptyObserver = scheduler.start { empty.debounce(.seconds(10), scheduler: scheduler) }
    let neverScheduler = TestScheduler(initialClock: 0)
    let neverSource = neverScheduler.createHotObservable(never.recordedEvents)
    let neverObserver = neverScheduler.start {
      neverSource.debounce(.seconds(10), scheduler: neverScheduler)
    }
    // then
    XCTAssertEqual(emptyObserver.events, [.completed(300)])
    XCTAssertEqual(neverObserver.events, [])
    XCTAssertEqual(neverSource.subscriptions, [Subscription(200, 1000)])
  }

  func test_debounce_disposalCancelsThePendingTimer() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(290, 2)])
    // when
    let observer = scheduler.start(disposed: 300) {
      source.debounce(.seconds(20), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(230, 1)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_debounce_reentrantElementFromObserverIsDelayedNotNested() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let subject = PublishSubject<Int>()
    var received: [(TestTime, Int)] = []
    let subscription = subject.debounce(.seconds(10), scheduler: scheduler)
      .subscribe(onNext: { value in
        received.append((scheduler.clock, value))
        if value < 3 { subject.onNext(value + 1) }
      })
    // when
    scheduler.scheduleAt(100) { subject.onNext(1) }
    scheduler.start()
    subscription.dispose()
    // then
    XCTAssertEqual(received.map(\.0), [110, 120, 130])
    XCTAssertEqual(received.map(\.1), [1, 2, 3])
  }

  func test_debounce_realSchedulerEmitsLastOfBurst() {
    // given
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.debounce")
    let subject = PublishSubject<Int>()
    let emitted = expectation(description: "the timer emitted the last element")
    let done = expectation(description: "completed")
    let values = LockedValues<Int>()
    let subscription = subject.debounce(.milliseconds(50), scheduler: scheduler)
      .subscribe(
        onNext: { value in
          values.append(value)
          emitted.fulfill()
        }, onCompleted: { done.fulfill() })
    // when
    let start = Date()
    for value in 1...5 { subject.onNext(value) }
    // then: the element comes from the timer, while the source is still open (completion
    // would flush it too, so it comes only after)
    wait(for: [emitted], timeout: 5)
    XCTAssertGreaterThanOrEqual(
      Date().timeIntervalSince(start), 0.05, "emitted before the due time")
    subject.onCompleted()
    wait(for: [done], timeout: 5)
    subscription.dispose()
    XCTAssertEqual(values.all, [5])
  }
}
