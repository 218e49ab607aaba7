import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class ObservableConcurrencyTests: ResourceTestCase {
  func test_values_yieldsElementsThenFinishes() async throws {
    // given
    let source = Observable.of(1, 2, 3)
    // when
    var received: [Int] = []
    for try await value in source.values { received.append(value) }
    // then
    XCTAssertEqual(received, [1, 2, 3])
  }

  func test_values_throwsTheSequenceError() async {
    // given
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onError(TestError(6))
      return Disposables.create()
    }
    var received: [Int] = []
    // when
    do {
      for try await value in source.values { received.append(value) }
      XCTFail("Expected an error")
    } catch {
      // then
      XCTAssertEqual(error as? TestError, TestError(6))
    }
    XCTAssertEqual(received, [1])
  }

  func test_values_cancellingTheConsumingTaskDisposesTheSubscription() async throws {
    // given
    let subject = PublishSubject<Int>()
    let stream = subject.values
    XCTAssertTrue(subject.hasObservers)
    let consumer = Task {
      var count = 0
      for try await _ in stream { count += 1 }
      return count
    }
    subject.onNext(1)
    // when
    consumer.cancel()
    _ = try? await consumer.value
    // then
    try await waitUntilAsync { !subject.hasObservers }
    XCTAssertFalse(subject.hasObservers)
  }

  func test_values_inACancelledTaskThrowsCancellationErrorWithoutAnyEvent() async {
    // given
    let subject = PublishSubject<Int>()
    let started = AsyncStream<Void>.makeStream()
    let consumer = Task {
      started.continuation.yield()
      var received: [Int] = []
      for try await value in subject.values { received.append(value) }
      return received
    }
    for await _ in started.stream { break }
    // when
    consumer.cancel()
    let result = await consumer.result
    // then
    XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
  }

  func test_values_iteratedInAnAlreadyCancelledTaskThrowsCancellationError() async {
    // given
    let subject = BehaviorSubject(value: 1)
    let gate = AsyncStream<Void>.makeStream()
    let consumer = Task {
      for await _ in gate.stream { break }
      var received: [Int] = []
      for try await value in subject.values { received.append(value) }
      return received
    }
    // when
    consumer.cancel()
    gate.continuation.yield()
    let result = await consumer.result
    // then
    XCTAssertThrowsError(try result.get()) { XCTAssertTrue($0 is CancellationError) }
    XCTAssertFalse(subject.hasObservers)
  }

  func test_asObservablePriority_runsTheIterationAtThatPriority() throws {
    // given
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.yield(1)
    continuation.finish()
    // when
    let values = try stream.asObservable(priority: .high).toBlocking(timeout: 5).toArray()
    // then
    XCTAssertEqual(values, [1])
  }

  func test_values_breakingOutOfTheLoopDisposesTheSubscription() async throws {
    // given
    let subject = BehaviorSubject(value: 0)
    // when
    for try await value in subject.values where value == 0 { break }
    // then
    try await waitUntilAsync { !subject.hasObservers }
    XCTAssertFalse(subject.hasObservers)
  }

  func test_valuesOfDriver_isNonThrowing() async {
    // given
    let driver = Driver.just(4)
    // when
    var received: [Int] = []
    for await value in driver.values { received.append(value) }
    // then
    XCTAssertEqual(received, [4])
  }

  func test_createAsync_sendsElementsThenCompletes() throws {
    // given
    let source = Observable<Int>.create { observer in
      for value in 1...3 {
        try await Task.sleep(nanoseconds: 1_000)
        observer.onNext(value)
      }
    }
    // when
    let result = try source.toBlocking(timeout: 5).toArray()
    // then
    XCTAssertEqual(result, [1, 2, 3])
  }

  func test_createAsync_thrownErrorFailsTheSequence() {
    // given
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      throw TestError(7)
    }
    // when
    let result = source.toBlocking(timeout: 5).materialize()
    // then
    guard case .failed(let elements, let error) = result else { return XCTFail("Not failed") }
    XCTAssertEqual(elements, [1])
    XCTAssertEqual(error as? TestError, TestError(7))
  }

  func test_createAsync_disposalCancelsTheTask() {
    // given
    let started = expectation(description: "started")
    let cancelled = expectation(description: "cancelled")
    let source = Observable<Int>.create { _ in
      started.fulfill()
      do {
        try await Task.sleep(nanoseconds: 10_000_000_000)
      } catch is CancellationError {
        cancelled.fulfill()
      }
    }
    var events: [Event<Int>] = []
    let subscription = source.subscribe { events.append($0) }
    wait(for: [started], timeout: 5)
    // when
    subscription.dispose()
    // then
    wait(for: [cancelled], timeout: 5)
    XCTAssertEqual(events, [])
  }

  func test_createAsync_concurrentChildTasksAreDeliveredSerially() throws {
    // given
    let active = LockedCounter()
    let overlaps = LockedCounter()
    let source = Observable<Int>.create { observer in
      // The observer is not `Sendable`; the library still serialises concurrent calls.
      nonisolated(unsafe) let shared = observer
      await withTaskGroup(of: Void.self) { group in
        for worker in 0..<4 {
          group.addTask {
            for index in 0..<100 { unsafe shared.onNext(worker * 100 + index) }
          }
        }
      }
    }
    .map { value -> Int in
      if active.increment() != 1 { _ = overlaps.increment() }
      active.decrement()
      return value
    }
    // when
    let values = try source.toBlocking(timeout: 5).toArray()
    // then
    XCTAssertEqual(values.sorted(), Array(0..<400))
    XCTAssertEqual(overlaps.increment(), 1, "Deliveries overlapped")
  }

  func test_async_emitsTheResultThenCompletes() throws {
    // given
    let source = Observable<String>.async {
      try await Task.sleep(nanoseconds: 1_000)
      return "done"
    }
    // when
    let result = try source.toBlocking(timeout: 5).toArray()
    // then
    XCTAssertEqual(result, ["done"])
  }

  func test_initAsyncSequence_iteratesAndCompletes() throws {
    // given
    let stream = AsyncStream<Int> { continuation in
      for value in 1...3 { continuation.yield(value) }
      continuation.finish()
    }
    // when
    let result = try Observable(stream).toBlocking(timeout: 5).toArray()
    // then
    XCTAssertEqual(result, [1, 2, 3])
  }

  func test_asObservable_asyncThrowingSequenceErrorFailsTheSequence() {
    // given
    let stream = AsyncThrowingStream<Int, Error> { continuation in
      continuation.yield(1)
      continuation.finish(throwing: TestError(8))
    }
    // when
    let result = stream.asObservable().toBlocking(timeout: 5).materialize()
    // then
    guard case .failed(let elements, let error) = result else { return XCTFail("Not failed") }
    XCTAssertEqual(elements, [1])
    XCTAssertEqual(error as? TestError, TestError(8))
  }

  func test_fromAsyncSequence_disposalCancelsTheIteration() {
    // given
    let terminated = expectation(description: "iteration ended")
    let firstElement = expectation(description: "first element")
    let stream = AsyncStream<Int> { continuation in
      continuation.onTermination = { _ in terminated.fulfill() }
      continuation.yield(1)
    }
    var received: [Int] = []
    let subscription = Observable.from(stream).subscribe(onNext: { value in
      received.append(value)
      firstElement.fulfill()
    })
    wait(for: [firstElement], timeout: 5)
    // when
    subscription.dispose()
    // then
    wait(for: [terminated], timeout: 5)
    XCTAssertEqual(received, [1])
  }

  func test_roundTrip_valuesOfAnObservableFromAnAsyncSequence() async throws {
    // given
    let stream = AsyncStream<Int> { continuation in
      for value in 1...5 { continuation.yield(value) }
      continuation.finish()
    }
    // when
    var received: [Int] = []
    for try await value in stream.asObservable().map({ $0 * 2 }).values { received.append(value) }
    // then
    XCTAssertEqual(received, [2, 4, 6, 8, 10])
  }
}

/// Polls `condition` until it holds, failing after `timeout` seconds.
private func waitUntilAsync(
  timeout: TimeInterval = 5, _ condition: @escaping () -> Bool
) async throws {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    guard Date() < deadline else {
      XCTFail("Condition not met within \(timeout) s")
      return
    }
    try await Task.sleep(nanoseconds: 1_000_000)
  }
}
