import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// RxTest names: `Recorded.events(…)` and `TestScheduler.start` with any
/// `ObservableConvertibleType`.
final class TestingKitCompatibilityTests: ResourceTestCase {
  func test_recordedEvents_buildsAndJoinsExpectedEvents() {
    // when
    let single = Recorded.events(.next(210, 1), .completed(220))
    let joined = Recorded.events([.next(210, "a")] + [.next(220, "b"), .completed(230)])
    // then
    XCTAssertEqual(single, [.next(210, 1), .completed(220)])
    XCTAssertEqual(joined, [.next(210, "a"), .next(220, "b"), .completed(230)])
  }

  func test_start_acceptsDriversSignalsAndTestableObservables() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    var driven: TestableObserver<Int>!
    var emitted: TestableObserver<Int>!
    // when
    let direct = scheduler.start { source }
    let other = TestScheduler(initialClock: 0)
    let hot = other.createHotObservable([.next(210, 2), .completed(220)])
    SharingScheduler.mock(scheduler: other) {
      driven = other.start { hot.asDriver(onErrorJustReturn: 0) }
    }
    let third = TestScheduler(initialClock: 0)
    let relay = third.createHotObservable([.next(230, 3)])
    SharingScheduler.mock(scheduler: third) {
      emitted = third.start { relay.asSignal(onErrorJustReturn: 0) }
    }
    // then
    XCTAssertEqual(direct.events, Recorded.events(.next(210, 1), .completed(220)))
    XCTAssertEqual(driven.events, [.next(211, 2), .completed(221)])
    XCTAssertEqual(emitted.events, [.next(231, 3)])
  }
}
