import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Shapes of RxTest code that must compile and mean the same here: `Recorded.events` with one
/// array or with arithmetic in its elements, `asCompletable()` inferring `Never`, converters
/// written with `TimeInterval`, and assertions over trait results.
final class RxTestShapesTests: ResourceTestCase {
  func test_recordedEvents_typeChecksArithmeticElements() {
    // when
    let events = Recorded.events(
      .next(210, 0 * 10 + 1), .next(220, 1 * 10 + 2), .next(230, 2 * 10 + 3),
      .next(240, 3 * 10 + 4), .next(250, 4 * 10 + 5), .completed(300))
    // then
    XCTAssertEqual(events.map(\.time), [210, 220, 230, 240, 250, 300])
    XCTAssertEqual(events.first?.value, .next(1))
  }

  func test_recordedEvents_takesOneArray() {
    // given
    let expected: [Recorded<Event<String>>] = [.next(210, "a"), .completed(220)]
    // when
    let events = Recorded.events([.next(210, "a"), .completed(220)])
    // then
    XCTAssertEqual(events, expected)
    XCTAssertEqual(Recorded.events(expected + [.next(230, "b")]).count, 3)
  }

  func test_asCompletable_infersNeverFromColdObservable() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let completes = scheduler.createColdObservable([.completed(20)]).asCompletable()
    // when
    let completed = scheduler.start { completes }
    let other = TestScheduler(initialClock: 0)
    let failing = other.createColdObservable([.error(30, TestError(1))]).asCompletable()
    let failed = other.start { failing }
    // then
    XCTAssertEqual(completed.events, [.completed(220)])
    XCTAssertEqual(failed.events, [.error(230, TestError(1))])
  }

  func test_virtualTimeConverter_writtenWithTimeIntervalDrivesScheduler() {
    // given
    let scheduler = VirtualTimeScheduler(initialClock: 0, converter: HalfSecondConverter())
    var ranAt: [Int] = []
    // when
    _ = scheduler.scheduleRelative((), dueTime: .seconds(2)) { _ in
      ranAt.append(scheduler.clock)
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(500)) { _ in
      ranAt.append(scheduler.clock)
      return Disposables.create()
    }
    scheduler.start()
    // then
    XCTAssertEqual(ranAt, [1, 4])
    XCTAssertEqual(
      scheduler.converter.convertFromVirtualTimeInterval(3) as RxTimeInterval,
      .nanoseconds(1_500_000_000))
  }

  func test_testSchedulerConverter_convertsTimeIntervals() {
    // given
    let converter = TestSchedulerVirtualTimeConverter(resolution: 0.1)
    // when
    let units = converter.convertToVirtualTimeInterval(2.5 as TimeInterval)
    let seconds: TimeInterval = converter.convertFromVirtualTimeInterval(7)
    // then
    XCTAssertEqual(units, 25)
    XCTAssertEqual(seconds, 0.7, accuracy: 1e-9)
    XCTAssertEqual(converter.convertToVirtualTimeInterval(TimeInterval.infinity), .max)
  }

  func test_maybeAndCompletableEvents_areEquatable() {
    // then
    XCTAssertEqual(MaybeEvent.success(1), .success(1))
    XCTAssertNotEqual(MaybeEvent.success(1), .success(2))
    XCTAssertNotEqual(MaybeEvent<Int>.completed, .error(TestError(1)))
    XCTAssertEqual(MaybeEvent<Int>.error(TestError(1)), .error(TestError(1)))
    XCTAssertNotEqual(MaybeEvent<Int>.error(TestError(1)), .error(TestError(2)))
    XCTAssertEqual(CompletableEvent.completed, .completed)
    XCTAssertEqual(CompletableEvent.error(TestError(3)), .error(TestError(3)))
    XCTAssertNotEqual(CompletableEvent.error(TestError(3)), .completed)
  }

  func test_xctAssertEqual_comparesTraitEventArrays() {
    // given
    var singleEvents: [SingleEvent<Int>] = []
    var maybeEvents: [MaybeEvent<Int>] = []
    var completableEvents: [CompletableEvent] = []
    // when
    _ = Single.just(1).subscribe { singleEvents.append($0) }
    _ = Single<Int>.error(TestError(1)).subscribe { singleEvents.append($0) }
    _ = Maybe.just(2).subscribe { maybeEvents.append($0) }
    _ = Maybe<Int>.empty().subscribe { maybeEvents.append($0) }
    _ = Completable.empty().subscribe { completableEvents.append($0) }
    _ = Completable.error(TestError(2)).subscribe { completableEvents.append($0) }
    // then
    XCTAssertEqual(singleEvents, [.success(1), .failure(TestError(1))])
    XCTAssertEqual(maybeEvents, [.success(2), .completed])
    XCTAssertEqual(completableEvents, [.completed, .error(TestError(2))])
  }
}

/// A converter in RxSwift's shape (intervals as `TimeInterval`): one unit is half a second.
private struct HalfSecondConverter: VirtualTimeConverterType {
  func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
    Date(timeIntervalSince1970: Double(virtualTime) / 2)
  }

  func convertToVirtualTime(_ time: RxTime) -> Int {
    Int(time.timeIntervalSince1970 * 2)
  }

  func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
    Double(virtualTimeInterval) / 2
  }

  func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
    Int((timeInterval * 2).rounded())
  }

  func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }

  func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}
