import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `using`, `Maybe.timer`, `Completable.concat(_:)` and `Single.zip(_:resultSelector:)`.
final class TraitAdditionsTests: ResourceTestCase {
  func test_singleUsing_disposesResourceAfterSuccess() throws {
    // given
    let resource = Resource()
    // when
    let value = try Single.using({ resource }) { _ in Single.just(5) }.asObservable()
      .toBlocking(timeout: 1).single()
    // then
    XCTAssertEqual(value, 5)
    XCTAssertEqual(resource.disposeCount, 1)
  }

  func test_maybeUsing_factoryErrorFailsAndStillDisposes() {
    // given
    let resource = Resource()
    // when
    let result = Maybe<Int>.using({ resource }) { _ in throw TestError(1) }.asObservable()
      .toBlocking(timeout: 1).materialize()
    // then
    guard case .failed(let elements, let error) = result else {
      return XCTFail("Expected the factory's error, got \(result).")
    }
    XCTAssertEqual(elements, [])
    XCTAssertEqual(error as? TestError, TestError(1))
    XCTAssertEqual(resource.disposeCount, 1)
  }

  func test_maybeTimer_emitsZeroAfterDueTime() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    // when
    let observer = scheduler.start { Maybe<Int>.timer(.seconds(30), scheduler: scheduler) }
    // then
    XCTAssertEqual(observer.events, [.next(230, 0), .completed(230)])
  }

  func test_completableConcat_runsSecondAfterFirst() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([.completed(20, Never.self)])
    let second = scheduler.createColdObservable([.completed(30, Never.self)])
    let failing = scheduler.createColdObservable([.error(10, TestError(1), Never.self)])
    // when
    let observer = scheduler.start {
      first.asCompletable().concat(second.asCompletable())
    }
    let other = TestScheduler(initialClock: 0)
    let skipped = other.createColdObservable([.completed(5, Never.self)])
    let failed = other.start {
      other.createColdObservable([.error(10, TestError(1), Never.self)]).asCompletable()
        .concat(skipped.asCompletable())
    }
    // then
    XCTAssertEqual(observer.events, [.completed(250)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(second.subscriptions, [Subscription(220, 250)])
    XCTAssertEqual(failed.events, [.error(210, TestError(1))])
    XCTAssertEqual(skipped.subscriptions, [])
    XCTAssertEqual(failing.subscriptions, [])
  }

  func test_singleZipCollection_combinesWithResultSelector() throws {
    // given
    let singles = [Single.just(1), Single.just(2), Single.just(3)]
    // when
    let sum = try Single.zip(singles) { $0.reduce(0, +) }.asObservable()
      .toBlocking(timeout: 1).single()
    let empty = try Single.zip([Single<Int>]()) { $0.count }.asObservable()
      .toBlocking(timeout: 1).single()
    let failed = Single.zip([Single.just(1), Single<Int>.error(TestError(2))]) { $0.count }
      .asObservable().toBlocking(timeout: 1).materialize()
    // then
    XCTAssertEqual(sum, 6)
    XCTAssertEqual(empty, 0)
    guard case .failed(_, let error) = failed else {
      return XCTFail("Expected the failing single's error, got \(failed).")
    }
    XCTAssertEqual(error as? TestError, TestError(2))
  }
}

/// A resource that counts how often it was disposed.
private final class Resource: Disposable, @unchecked Sendable {
  // Safety: used by one thread in these tests.
  var disposeCount = 0
  func dispose() { disposeCount += 1 }
}
