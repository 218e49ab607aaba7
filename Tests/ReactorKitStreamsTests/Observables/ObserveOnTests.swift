import Dispatch
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ObserveOnTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    // Main-scheduler work runs at once only when nothing is queued on the main queue.
    drainMainQueue()
  }

  func test_observeOn_deliversOnTheSchedulerAfterProcessingDelay() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(240, 3), .completed(300),
    ])
    // when
    let observer = scheduler.start { source.observe(on: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(211, 2), .next(241, 3), .completed(301)])
    // The source's subscription ends at its completion, as RxSwift's `asObservable()` ends it.
    XCTAssertEqual(source.subscriptions, [Subscription(200, 300)])
  }

  func test_observeOn_errorIsDeliveredAfterPendingElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 2), .error(210, TestError(1))])
    // when
    let observer = scheduler.start { source.observe(on: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(211, 2), .error(212, TestError(1))])
  }

  func test_observeOn_disposalDropsPendingEvents() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(299, 2), .next(300, 3)])
    // when
    let observer = scheduler.start(disposed: 300) { source.observe(on: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(211, 1)])
  }

  func test_observeOn_hopsToSerialQueueAndBackKeepingOrder() {
    // given
    let background = SerialDispatchQueueScheduler(internalSerialQueueName: "test.observeOn.bg")
    let other = SerialDispatchQueueScheduler(internalSerialQueueName: "test.observeOn.other")
    let subject = PublishSubject<Int>()
    let done = expectation(description: "completed")
    let values = LockedValues<Int>()
    let overlaps = LockedCounter()
    let active = LockedCounter()
    let subscription =
      subject
      .observe(on: background)
      .map { $0 * 2 }
      .observe(on: other)
      .subscribe(
        onNext: { value in
          if active.increment() != 1 { _ = overlaps.increment() }
          values.append(value)
          active.decrement()
        },
        onCompleted: { done.fulfill() })
    // when
    runConcurrently(threads: 4) { worker in
      for index in 0..<250 {
        subject.onNext(worker * 1_000 + index)
        sched_yield()
      }
    }
    subject.onCompleted()
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    let all = values.all
    XCTAssertEqual(all.count, 1_000)
    XCTAssertEqual(overlaps.increment(), 1, "Deliveries overlapped")
    for worker in 0..<4 {
      let mine = all.filter { $0 / 2_000 == worker }
      XCTAssertEqual(mine, mine.sorted(), "Order of worker \(worker) changed")
    }
  }

  func test_observeOn_hopsToBackgroundAndBackToMain() {
    // given
    let background = SerialDispatchQueueScheduler(qos: .userInitiated)
    let subject = PublishSubject<Int>()
    var received: [Int] = []
    var offMain = 0
    var completed = false
    let subscription =
      subject
      .observe(on: background)
      .map { value -> Int in
        dispatchPrecondition(condition: .notOnQueue(.main))
        return value + 1
      }
      .observe(on: MainScheduler.instance)
      .subscribe(
        onNext: { value in
          if !MainScheduler.isMainThread { offMain += 1 }
          received.append(value)
        },
        onCompleted: { completed = true })
    // when
    runConcurrently(threads: 3) { worker in
      for index in 0..<100 {
        subject.onNext(worker * 1_000 + index)
        sched_yield()
      }
    }
    subject.onCompleted()
    runMainLoopUntil { completed }
    subscription.dispose()
    // then
    XCTAssertEqual(received.count, 300)
    XCTAssertEqual(offMain, 0)
    for worker in 0..<3 {
      let mine = received.filter { $0 / 1_000 == worker }
      XCTAssertEqual(mine, mine.sorted(), "Order of worker \(worker) changed")
    }
  }

  func test_observeOn_concurrentSchedulerStillDeliversSerially() {
    // given
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    let subject = PublishSubject<Int>()
    let done = expectation(description: "completed")
    let active = LockedCounter()
    let overlaps = LockedCounter()
    let values = LockedValues<Int>()
    let subscription = subject.observe(on: scheduler).subscribe(
      onNext: { value in
        if active.increment() != 1 { _ = overlaps.increment() }
        values.append(value)
        active.decrement()
      },
      onCompleted: { done.fulfill() })
    // when
    for value in 0..<2_000 { subject.onNext(value) }
    subject.onCompleted()
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(values.all, Array(0..<2_000))
    XCTAssertEqual(overlaps.increment(), 1, "Deliveries overlapped")
  }

  func test_observeOn_mainSchedulerDeliversOnTheMainQueue() {
    // given
    let done = expectation(description: "completed")
    let onMain = LockedValues<Bool>()
    let subscription = Observable.of(1, 2, 3)
      .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
      .observe(on: MainScheduler.instance)
      .subscribe(
        onNext: { _ in onMain.append(MainScheduler.isMainThread) },
        onCompleted: { done.fulfill() })
    // when
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(onMain.all, [true, true, true])
  }

  func test_observeOn_mainSchedulerInstanceIsSynchronousOnTheMainThread() {
    // given
    var received: [Int] = []
    // when
    let subscription = Observable.of(1, 2).observe(on: MainScheduler.instance)
      .subscribe(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, [1, 2])
    subscription.dispose()
  }

  func test_observeOn_asyncInstanceWaitsForTheMainQueue() {
    // given
    let done = expectation(description: "delivered")
    var received: [Int] = []
    // when
    let subscription = Observable.of(1, 2).observe(on: MainScheduler.asyncInstance)
      .subscribe(onNext: { received.append($0) }, onCompleted: { done.fulfill() })
    let receivedBeforeWaiting = received
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(receivedBeforeWaiting, [])
    XCTAssertEqual(received, [1, 2])
  }

  func test_subscribeOn_subscribesAndDisposesOnTheScheduler() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(400, 3)])
    // when
    let observer = scheduler.start(disposed: 300) { source.subscribe(on: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 2)])
    XCTAssertEqual(source.subscriptions, [Subscription(201, 301)])
  }

  func test_subscribeOn_runsSubscriptionOnTheQueue() {
    // given
    let queue = DispatchQueue(label: "test.subscribeOn")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 7)
    let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "inner")
    let subscribedOn = LockedValues<Int?>()
    let done = expectation(description: "completed")
    // when
    let subscription = Observable<Int>.create { observer in
      subscribedOn.append(DispatchQueue.getSpecific(key: key))
      observer.onCompleted()
      return Disposables.create()
    }
    .subscribe(on: scheduler)
    .subscribe(onCompleted: { done.fulfill() })
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(subscribedOn.all, [7])
  }
}

// MARK: - One scheduled action per event on virtual time (RxSwift's timing)

extension ObserveOnTests {
  func test_observeOn_singleJust_completesOneUnitAfterTheElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start {
      Single.just(1).observe(on: scheduler).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(201, 1), .completed(202)])
  }

  func test_observeOn_maybeJust_completesOneUnitAfterTheElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start {
      Maybe.just(1).observe(on: scheduler).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(201, 1), .completed(202)])
  }

  func test_observeOn_eventsArrivingTogether_eachGetsItsOwnAction() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(210, 2), .completed(210),
    ])
    // when
    let observer = scheduler.start { source.observe(on: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(211, 1), .next(212, 2), .completed(213)])
  }

  func test_observeOn_virtualTime_disposalDropsTheEventsStillQueued() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(210, 2), .next(210, 3), .completed(210),
    ])
    // when
    let observer = scheduler.start(disposed: 212) { source.observe(on: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(211, 1)])
  }
}
