import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class GenerateTests: ResourceTestCase {
  func test_generate_emitsStatesWhileTheConditionHolds() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start {
      Observable.generate(initialState: 1, condition: { $0 < 20 }, scheduler: scheduler) {
        $0 * 3
      }
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(201, 1), .next(202, 3), .next(203, 9), .completed(204)])
  }

  func test_generate_thrownErrorsEndTheSequence() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let iterateFails = scheduler.start {
      Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler) {
        if $0 == 1 { throw TestError(1) }
        return $0 + 1
      }
    }
    // then
    XCTAssertEqual(iterateFails.events, [.next(201, 0), .next(202, 1), .error(203, TestError(1))])
  }

  func test_generate_conditionErrorAndDisposal() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var iterations = 0
    // when
    let disposed = scheduler.start(disposed: 203) {
      Observable.generate(initialState: 0, condition: { _ in true }, scheduler: scheduler) {
        iterations += 1
        return $0 + 1
      }
    }
    let failing = try? Observable<Int>.generate(
      initialState: 0, condition: { _ in throw TestError(2) }, iterate: { $0 }
    ).toBlocking().toArray()
    // then
    XCTAssertEqual(disposed.events, [.next(201, 0), .next(202, 1)])
    XCTAssertEqual(iterations, 1)
    XCTAssertNil(failing)
  }

  func test_generate_longSynchronousSequenceOnTheTrampoline() throws {
    // when
    let count = try Observable.generate(initialState: 0, condition: { $0 < 100_000 }) {
      $0 + 1
    }.toBlocking().toArray().count
    // then
    XCTAssertEqual(count, 100_000)
  }

  func test_range_emitsConsecutiveIntegers() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Observable.range(start: 5, count: 3, scheduler: scheduler) }
    let empty = try Observable<Int>.range(start: 1, count: 0).toBlocking().toArray()
    let edge = try Observable<Int8>.range(start: 126, count: 2).toBlocking().toArray()
    // then
    XCTAssertEqual(
      observer.events, [.next(201, 5), .next(202, 6), .next(203, 7), .completed(204)])
    XCTAssertEqual(empty, [])
    XCTAssertEqual(edge, [126, 127])
  }

  func test_range_disposalStopsTheSteps() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start(disposed: 202) {
      Observable.range(start: 0, count: 10, scheduler: scheduler)
    }
    // then
    XCTAssertEqual(observer.events, [.next(201, 0)])
  }
}
