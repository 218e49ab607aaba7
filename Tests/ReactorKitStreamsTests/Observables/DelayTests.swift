import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DelayTests: ResourceTestCase {
  private func makeSource(_ scheduler: TestScheduler, end: Recorded<Event<Int>>)
    -> TestableObservable<Int>
  {
    scheduler.createHotObservable([.next(150, 1), .next(250, 2), .next(350, 3), .next(450, 4), end])
  }

  func test_delay_shiftsElementsAndCompletion() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .completed(550))
    // when
    let observer = scheduler.start { source.delay(.seconds(100), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(350, 2), .next(450, 3), .next(550, 4), .completed(650)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 550)])
  }

  func test_delay_longerThanGapsKeepsOrderAndSpacing() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .completed(550))
    // when
    let observer = scheduler.start { source.delay(.seconds(150), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(400, 2), .next(500, 3), .next(600, 4), .completed(700)])
  }

  func test_delay_errorIsNotDelayedAndDropsWaitingElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .error(550, TestError(1)))
    // when
    let observer = scheduler.start { source.delay(.seconds(150), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(400, 2), .next(500, 3), .error(550, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 550)])
  }

  func test_delay_eventsAtTheSameTimeAreDeliveredOneActionEach() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([
      .next(10, 1), .next(10, 2), .next(20, 3), .completed(20),
    ])
    // when
    let observer = scheduler.start { source.delay(.seconds(5), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(215, 1), .next(216, 2), .next(225, 3), .completed(226)])
  }

  func test_delay_disposalDropsWaitingElements() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = makeSource(scheduler, end: .completed(550))
    // when
    let observer = scheduler.start(disposed: 420) {
      source.delay(.seconds(100), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(350, 2)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 420)])
  }

  func test_delay_synchronousSourceReleasesEverything() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var events: [Event<Int>] = []
    // when
    _ = Observable.just(1).delay(.seconds(100), scheduler: scheduler).subscribe {
      events.append($0)
    }
    scheduler.start()
    // then
    XCTAssertEqual(events, [.next(1), .completed])
  }

  func test_delay_onConcurrentSchedulerKeepsOrder() {
    // given
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    let subject = PublishSubject<Int>()
    let done = expectation(description: "completed")
    let values = LockedValues<Int>()
    let subscription = subject.delay(.milliseconds(2), scheduler: scheduler)
      .subscribe(onNext: { values.append($0) }, onCompleted: { done.fulfill() })
    // when
    for value in 0..<200 { subject.onNext(value) }
    subject.onCompleted()
    wait(for: [done], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(values.all, Array(0..<200))
  }

  func test_delaySubscription_subscribesAfterDueTime() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(50, 42), .completed(60)])
    // when
    let observer = scheduler.start {
      source.delaySubscription(.seconds(30), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(280, 42), .completed(290)])
    XCTAssertEqual(source.subscriptions, [Subscription(230, 290)])
  }

  func test_delaySubscription_disposedBeforeDueTimeNeverSubscribes() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(50, 42)])
    // when
    let observer = scheduler.start(disposed: 220) {
      source.delaySubscription(.seconds(30), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(source.subscriptions, [])
  }

  func test_delay_releasesDeliveredElementsWhileOthersStillWait() {
    // given: elements every 10 ticks, delayed by 100, so the queue never drains
    let scheduler = TestScheduler(initialClock: 0)
    let subject = PublishSubject<DelayToken>()
    var created: [WeakDelayToken] = []
    var delivered = 0
    let subscription = subject.delay(.seconds(100), scheduler: scheduler)
      .subscribe(onNext: { _ in delivered += 1 })
    for time in stride(from: 100, through: 400, by: 10) {
      scheduler.scheduleAt(time) {
        let token = DelayToken()
        created.append(WeakDelayToken(token))
        subject.onNext(token)
      }
    }
    // when: stopped while ten elements wait
    scheduler.advanceTo(305)
    // then: the eleven delivered ones are gone, the ten waiting ones alive
    XCTAssertEqual(delivered, 11)
    XCTAssertEqual(created.count, 21)
    XCTAssertEqual(created.prefix(11).filter { $0.token != nil }.count, 0)
    XCTAssertEqual(created.suffix(10).filter { $0.token != nil }.count, 10)
    subscription.dispose()
  }
}

private final class DelayToken {}

private struct WeakDelayToken {
  weak var token: DelayToken?
  init(_ token: DelayToken) { self.token = token }
}

// MARK: - One scheduled action per event on virtual time (RxSwift's timing)

extension DelayTests {
  func test_delay_singleJust_completesOneUnitAfterTheElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start {
      Single.just(1).delay(.seconds(2), scheduler: scheduler).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(202, 1), .completed(203)])
  }

  func test_delay_maybeJust_completesOneUnitAfterTheElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start {
      Maybe.just(1).delay(.seconds(2), scheduler: scheduler).asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.next(202, 1), .completed(203)])
  }

  func test_delay_eventsDueTogether_eachGetsItsOwnAction() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(210, 2), .next(230, 3), .completed(230),
    ])
    // when
    let observer = scheduler.start { source.delay(.seconds(10), scheduler: scheduler) }
    // then
    XCTAssertEqual(
      observer.events, [.next(220, 1), .next(221, 2), .next(240, 3), .completed(241)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_delay_withoutProcessingDelay_deliversEventsDueTogetherAtTheSameTime() {
    // given
    let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
    // when
    let observer = scheduler.start {
      Observable.of(1, 2).delay(.seconds(5), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(205, 1), .next(205, 2), .completed(205)])
  }
}
