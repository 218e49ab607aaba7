import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `Maybe.zip` for 2 to 8 sources, with and without a result selector, in virtual time.
final class MaybeZipTests: ResourceTestCase {
  private struct Failure: Error, Equatable {}

  private static func zipSelecting(_ m: [Maybe<Int>]) -> Maybe<[Int]> {
    switch m.count {
    case 2: return Maybe.zip(m[0], m[1]) { [$0, $1] }
    case 3: return Maybe.zip(m[0], m[1], m[2]) { [$0, $1, $2] }
    case 4: return Maybe.zip(m[0], m[1], m[2], m[3]) { [$0, $1, $2, $3] }
    case 5: return Maybe.zip(m[0], m[1], m[2], m[3], m[4]) { [$0, $1, $2, $3, $4] }
    case 6: return Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5]) { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]) { [$0, $1, $2, $3, $4, $5, $6] }
    default:
      return Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]) {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private static func zipTuples(_ m: [Maybe<Int>]) -> Maybe<[Int]> {
    switch m.count {
    case 2: return Maybe.zip(m[0], m[1]).map { [$0, $1] }
    case 3: return Maybe.zip(m[0], m[1], m[2]).map { [$0, $1, $2] }
    case 4: return Maybe.zip(m[0], m[1], m[2], m[3]).map { [$0, $1, $2, $3] }
    case 5: return Maybe.zip(m[0], m[1], m[2], m[3], m[4]).map { [$0, $1, $2, $3, $4] }
    case 6: return Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5]).map { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]).map {
        [$0, $1, $2, $3, $4, $5, $6]
      }
    default:
      return Maybe.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).map {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private let harness = TraitZipHarness<Maybe<Int>>(
    convert: { $0.asMaybe() },
    zip: { traits, tuples in
      (tuples ? zipTuples(traits) : zipSelecting(traits)).asObservable()
    })

  func test_maybeZip_everyArity_succeedsWhenAllSucceed() {
    harness.forEveryArity { arity, tuples, context in
      // when
      let (observer, _) = harness.run(arity: arity, tuples: tuples) { index in
        [.next(10 * (index + 1), index + 1), .completed(10 * (index + 1))]
      }
      // then: one element once the last maybe succeeded, then completion
      let end = 200 + 10 * arity
      XCTAssertEqual(observer.events, [.next(end, Array(1...arity)), .completed(end)], context)
    }
  }

  func test_maybeZip_everyArity_completesEmptyOnceAllFinishedWhenOneIsEmpty() {
    harness.forEveryArity { arity, tuples, context in
      // when: the first maybe completes without an element
      let (observer, sources) = harness.run(arity: arity, tuples: tuples) { index in
        index == 0
          ? [.completed(10)] : [.next(10 * (index + 1), index + 1), .completed(10 * (index + 1))]
      }
      // then: as RxSwift's zip, no element and completion once every maybe finished (an
      // element that arrives while another maybe is still running may yet be paired)
      XCTAssertEqual(observer.events, [.completed(200 + 10 * arity)], context)
      XCTAssertEqual(
        sources.map(\.subscriptions), (1...arity).map { [Subscription(200, 200 + 10 * $0)] },
        context)
    }
  }

  func test_maybeZip_everyArity_failsWithTheFirstError() {
    harness.forEveryArity { arity, tuples, context in
      // when: the last maybe fails first
      let (observer, _) = harness.run(arity: arity, tuples: tuples) { index in
        index == arity - 1 ? [.error(5, Failure())] : [.next(10, 1), .completed(10)]
      }
      // then
      XCTAssertEqual(observer.events, [.error(205, Failure())], context)
    }
  }

  func test_maybeZip_selectorError_failsTheMaybe() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let a = scheduler.createColdObservable([.next(10, 1), .completed(10)]).asMaybe()
    let b = scheduler.createColdObservable([.next(20, 2), .completed(20)]).asMaybe()
    // when
    let observer = scheduler.start {
      Maybe<Int>.zip(a, b) { _, _ in throw Failure() }.asObservable()
    }
    // then
    XCTAssertEqual(observer.events, [.error(220, Failure())])
  }
}
