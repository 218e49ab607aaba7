import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class TimerTests: ResourceTestCase {
  func test_timer_withoutPeriodEmitsZeroThenCompletes() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Observable<Int>.timer(.seconds(100), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(300, 0), .completed(300)])
  }

  func test_timer_withPeriodCountsUntilDisposed() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start(disposed: 500) {
      Observable<Int>.timer(.seconds(100), period: .seconds(50), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(300, 0), .next(350, 1), .next(400, 2), .next(450, 3)])
  }

  func test_timer_disposedBeforeDueTimeEmitsNothing() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start(disposed: 250) {
      Observable<Int>.timer(.seconds(100), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [])
  }

  func test_timer_zeroDueTimeFiresAfterProcessingDelay() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Observable<Int>.timer(.seconds(0), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(201, 0), .completed(201)])
  }

  func test_timer_neverDueTimeNeverFires() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Observable<Int>.timer(.never, scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [])
  }

  func test_interval_emitsEveryPeriodStartingAfterOnePeriod() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start(disposed: 550) {
      Observable<Int>.interval(.seconds(100), scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(300, 0), .next(400, 1), .next(500, 2)])
  }

  func test_interval_wrapsAroundOnOverflow() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start(disposed: 200 + 258) {
      Observable<UInt8>.interval(.seconds(1), scheduler: scheduler)
    }
    // then
    let values = observer.events.compactMap { $0.value.element }
    XCTAssertEqual(values.count, 257)
    XCTAssertEqual(values.suffix(2), [255, 0])
  }

  func test_interval_onDispatchQueueSchedulerDeliversElements() {
    // given
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.interval")
    let received = expectation(description: "three elements")
    let values = LockedValues<Int>()
    // when
    let subscription = Observable<Int>.interval(.milliseconds(5), scheduler: scheduler)
      .subscribe(onNext: { value in
        if values.append(value) == 3 { received.fulfill() }
      })
    wait(for: [received], timeout: 5)
    subscription.dispose()
    // then
    XCTAssertEqual(Array(values.all.prefix(3)), [0, 1, 2])
  }
}
