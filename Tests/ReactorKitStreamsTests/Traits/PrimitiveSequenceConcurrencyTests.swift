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
    do {
      _ = try await task.value
      XCTFail("Expected CancellationError.")
    } catch {
      XCTAssertTrue(error is CancellationError, "Got \(error).")
    }
  }

  func test_maybeValue_inCancelledTaskThrowsWithoutWaiting() async {
    // when
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await Maybe<Int>.never().value
    }
    // then
    do {
      _ = try await task.value
      XCTFail("Expected CancellationError.")
    } catch {
      XCTAssertTrue(error is CancellationError, "Got \(error).")
    }
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
    let single = Single<Int>.create {
      started.fulfill()
      await withTaskCancellationHandler {
        while !Task.isCancelled { await Task.yield() }
      } onCancel: {
        cancelled.fulfill()
      }
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
}
