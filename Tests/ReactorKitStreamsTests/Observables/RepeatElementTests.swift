import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class RepeatElementTests: ResourceTestCase {
  func test_repeatElement_emitsOnePerSchedulerStepUntilDisposed() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start(disposed: 204) {
      Observable.repeatElement(42, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(201, 42), .next(202, 42), .next(203, 42)])
  }

  func test_repeatElement_takeStopsProducing() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var produced = 0
    // when
    let observer = scheduler.start {
      Observable.repeatElement(7, scheduler: scheduler).do(onNext: { _ in produced += 1 })
        .take(3)
    }
    scheduler.advanceTo(2_000)
    // then
    XCTAssertEqual(observer.events, [.next(201, 7), .next(202, 7), .next(203, 7), .completed(203)])
    XCTAssertEqual(produced, 3)
  }

  func test_repeatElement_onTrampolineStopsAtTake() {
    // given
    var received: [Int] = []
    var produced = 0
    // when
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      Observable.repeatElement(1).do(onNext: { _ in produced += 1 }).take(4)
        .subscribe(onNext: { received.append($0) })
    }
    // then
    XCTAssertEqual(received, [1, 1, 1, 1])
    XCTAssertLessThanOrEqual(produced, 5)
  }

  func test_repeatElement_outsideATrampolineStopsAtTake() {
    // given: a plain subscribe, as on the main thread (no trampoline running)
    var received: [Int] = []
    var produced = 0
    // when: an infinite source; before the sources stopped on disposal this never returned
    let subscription = Observable.repeatElement(1).do(onNext: { _ in produced += 1 }).take(4)
      .subscribe(onNext: { received.append($0) })
    subscription.dispose()
    // then
    XCTAssertEqual(received, [1, 1, 1, 1])
    XCTAssertEqual(produced, 4)
  }
}
