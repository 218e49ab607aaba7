import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `value` on the traits and `Single.create(work:)`, as in RxSwift's
/// `PrimitiveSequence+Concurrency`.
final class PrimitiveSequenceConcurrencyTests: ResourceTestCase {
  func test_singleValue_returnsElementOrThrowsError() async throws {
    // when
    let value = try await Single.just(3).value
    // then
    XCTAssertEqual(value, 3)
    do {
      _ = try await Single<Int>.error(TestError(1)).value
      XCTFail("Expected the single's error.")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(1))
    }
  }

  func test_maybeValue_returnsElementOrNil() async throws {
    // when
    let element = try await Maybe.just("a").value
    let empty = try await Maybe<String>.empty().value
    // then
    XCTAssertEqual(element, "a")
    XCTAssertNil(empty)
  }

  func test_completableValue_returnsOnCompletionOrThrows() async throws {
    // when
    try await Completable.empty().value
    // then
    do {
      try await Completable.error(TestError(2)).value
      XCTFail("Expected the completable's error.")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(2))
    }
  }

  func test_singleValue_cancellationDisposesAndThrows() async throws {
    // given
    let disposed = expectation(description: "subscription disposed")
    let subscribed = expectation(description: "subscribed")
    let single = Single<Int>.never().do(
      onSubscribed: { subscribed.fulfill() }, onDispose: { disposed.fulfill() })
    // when
    let task = Task { try await single.value }
    await fulfillment(of: [subscribed], timeout: 5)
    task.cancel()
    // then
    await fulfillment(of: [disposed], timeout: 5)
    let result = await finish(task)
    XCTAssertTrue(result?.failure is CancellationError, "Got \(String(describing: result)).")
  }

  func test_maybeValue_inCancelledTaskThrowsWithoutWaiting() async {
    // when
    let task = Task {
      unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
      return try await Maybe<Int>.never().value
    }
    // then
    let result = await finish(task)
    XCTAssertTrue(result?.failure is CancellationError, "Got \(String(describing: result)).")
  }

  func test_value_inCancelledTask_subscribesAndDeliversSynchronousResults() async {
    // given: RxSwift subscribes even from a cancelled task; a trait that ends while being
    // subscribed delivers its result
    let subscriptions = LockedValues<String>()
    func counted<Trait>(_ name: String, _ trait: Trait) -> Trait {
      subscriptions.append(name)
      return trait
    }
    // when
    let task = Task { () -> [String] in
      unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
      var results: [String] = []
      try await Completable.deferred { counted("completable", Completable.empty()) }.value
      results.append("()")
      let none = try await Maybe<Int>.deferred { counted("empty", Maybe.empty()) }.value
      results.append(String(describing: none))
      let one = try await Maybe.deferred { counted("maybe", Maybe.just(1)) }.value
      results.append(String(describing: one))
      let single = try await Single.deferred { counted("single", Single.just(1)) }.value
      results.append(String(describing: single))
      do {
        _ = try await Single<Int>.deferred { counted("failing", .error(TestError(3))) }.value
      } catch {
        results.append(error as? TestError == TestError(3) ? "TestError(3)" : "\(error)")
      }
      return results
    }
    // then
    let result = await finish(task)
    XCTAssertEqual(
      try? result?.get(), ["()", "nil", "Optional(1)", "1", "TestError(3)"])
    XCTAssertEqual(subscriptions.all, ["completable", "empty", "maybe", "single", "failing"])
  }

  func test_value_inCancelledTask_pendingTraitIsDisposedAndThrows() async {
    // given
    let disposed = LockedValues<String>()
    let single = Single<Int>.never().do(onDispose: { disposed.append("single") })
    // when
    let task = Task {
      unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
      return try await single.value
    }
    // then
    let result = await finish(task)
    XCTAssertTrue(result?.failure is CancellationError, "Got \(String(describing: result)).")
    XCTAssertEqual(disposed.all, ["single"], "subscribed, then disposed at the cancellation")
  }

  func test_singleCreateWork_emitsResultOrError() async throws {
    // when
    let value = try await Single.create { () async throws -> Int in
      await Task.yield()
      return 7
    }.value
    let detached = try await Single.create(detached: true, priority: .low) { "d" }.value
    // then
    XCTAssertEqual(value, 7)
    XCTAssertEqual(detached, "d")
    do {
      _ = try await Single<Int>.create { throw TestError(3) }.value
      XCTFail("Expected the work's error.")
    } catch {
      XCTAssertEqual(error as? TestError, TestError(3))
    }
  }

  func test_singleCreateWork_disposingCancelsTask() async {
    // given
    let started = expectation(description: "work started")
    let cancelled = expectation(description: "work cancelled")
    // The work polls for cancellation: an `onCancel` handler is skipped when the polling
    // loop sees the cancellation and leaves `withTaskCancellationHandler` first (Swift 6.3
    // on Linux, about 1 run in 200 here), which made this test flaky.
    let single = Single<Int>.create {
      started.fulfill()
      while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
      cancelled.fulfill()
      return 1
    }
    var received: [SingleEvent<Int>] = []
    // when
    let subscription = single.subscribe { received.append($0) }
    await fulfillment(of: [started], timeout: 5)
    subscription.dispose()
    // then
    await fulfillment(of: [cancelled], timeout: 5)
    XCTAssertTrue(received.isEmpty)
  }

  func test_singleValue_elementAndCancellationRacingFinishEveryAwait() async {
    // given
    let rounds = StressConfiguration.iterations(300)
    var values = 0
    var cancellations = 0
    // when
    for round in 0..<rounds {
      // The element arrives on another thread, racing with the cancellation below.
      let single = Single<Int>.create { observer in
        let report = UncheckedSendable(observer)
        DispatchQueue.global().async { report.value(.success(round)) }
        return Disposables.create()
      }
      let task = Task { try await single.value }
      if round % 2 == 0 { await Task.yield() }
      task.cancel()
      // then: each await ends, with the element or with CancellationError
      switch await finish(task) {
      case .success(let value)?:
        XCTAssertEqual(value, round)
        values += 1
      case .failure(let error)?:
        XCTAssertTrue(error is CancellationError, "Round \(round): got \(error).")
        cancellations += 1
      case nil:
        return XCTFail("Round \(round): the await did not end.")
      }
    }
    XCTAssertEqual(values + cancellations, rounds)
  }

  /// The result of `task`, or `nil` (after a failed expectation) when it has not finished
  /// within `seconds`: a bounded wait, so an await that never ends fails the test instead
  /// of hanging it.
  private func finish<Value: Sendable>(
    _ task: Task<Value, Swift.Error>, within seconds: TimeInterval = 5
  ) async -> Result<Value, Swift.Error>? {
    let finished = expectation(description: "the task finished")
    let results = LockedValues<Result<Value, Swift.Error>>()
    Task {
      results.append(await task.result)
      finished.fulfill()
    }
    await fulfillment(of: [finished], timeout: seconds)
    return results.all.first
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
