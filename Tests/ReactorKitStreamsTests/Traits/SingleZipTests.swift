import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `Single.zip` for 2 to 8 sources (4 to 8 in Single+Zip.swift), with and without a result selector, in virtual time.
final class SingleZipTests: ResourceTestCase {
  private struct Failure: Error, Equatable {}

  private static func zipSelecting(_ m: [Single<Int>]) -> Single<[Int]> {
    switch m.count {
    case 2: return Single.zip(m[0], m[1]) { [$0, $1] }
    case 3: return Single.zip(m[0], m[1], m[2]) { [$0, $1, $2] }
    case 4: return Single.zip(m[0], m[1], m[2], m[3]) { [$0, $1, $2, $3] }
    case 5: return Single.zip(m[0], m[1], m[2], m[3], m[4]) { [$0, $1, $2, $3, $4] }
    case 6: return Single.zip(m[0], m[1], m[2], m[3], m[4], m[5]) { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Single.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]) { [$0, $1, $2, $3, $4, $5, $6] }
    default:
      return Single.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]) {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private static func zipTuples(_ m: [Single<Int>]) -> Single<[Int]> {
    switch m.count {
    case 2: return Single.zip(m[0], m[1]).map { [$0, $1] }
    case 3: return Single.zip(m[0], m[1], m[2]).map { [$0, $1, $2] }
    case 4: return Single.zip(m[0], m[1], m[2], m[3]).map { [$0, $1, $2, $3] }
    case 5: return Single.zip(m[0], m[1], m[2], m[3], m[4]).map { [$0, $1, $2, $3, $4] }
    case 6: return Single.zip(m[0], m[1], m[2], m[3], m[4], m[5]).map { [$0, $1, $2, $3, $4, $5] }
    case 7:
      return Single.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6]).map {
        [$0, $1, $2, $3, $4, $5, $6]
      }
    default:
      return Single.zip(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7]).map {
        [$0, $1, $2, $3, $4, $5, $6, $7]
      }
    }
  }

  private let harness = TraitZipHarness<Single<Int>>(
    convert: { $0.asSingle() },
    zip: { traits, tuples in
      (tuples ? zipTuples(traits) : zipSelecting(traits)).asObservable()
    })

  func test_singleZip_everyArity_succeedsWhenAllSucceed() {
    harness.forEveryArity { arity, tuples, context in
      // when
      let (observer, sources) = harness.run(arity: arity, tuples: tuples) { index in
        [.next(10 * (index + 1), index + 1), .completed(10 * (index + 1))]
      }
      // then: one element once the last single succeeded, then completion
      let end = 200 + 10 * arity
      XCTAssertEqual(observer.events, [.next(end, Array(1...arity)), .completed(end)], context)
      XCTAssertEqual(
        sources.map(\.subscriptions), (1...arity).map { [Subscription(200, 200 + 10 * $0)] },
        context)
    }
  }

  func test_singleZip_everyArity_failsWithTheFirstErrorAndDisposesTheOthers() {
    harness.forEveryArity { arity, tuples, context in
      // when: the last single fails first
      let (observer, sources) = harness.run(arity: arity, tuples: tuples) { index in
        index == arity - 1 ? [.error(5, Failure())] : [.next(10, 1), .completed(10)]
      }
      // then
      XCTAssertEqual(observer.events, [.error(205, Failure())], context)
      XCTAssertEqual(
        sources.map(\.subscriptions), Array(repeating: [Subscription(200, 205)], count: arity),
        context)
    }
  }
}
