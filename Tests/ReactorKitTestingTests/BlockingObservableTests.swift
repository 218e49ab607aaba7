import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class BlockingObservableTests: ResourceTestCase {
  func test_toArray_collectsEveryElement() throws {
    // given
    let source = Observable.of(1, 2, 3)
    // when
    let values = try source.toBlocking().toArray()
    // then
    XCTAssertEqual(values, [1, 2, 3])
  }

  func test_singlePredicate_stopsCallingThePredicateOnceDecided() {
    // given
    var calls: [Int] = []
    // when
    XCTAssertThrowsError(
      try Observable.of(1, 2, 3, 4).toBlocking().single {
        calls.append($0)
        return $0 >= 2
      }
    ) { error in
      guard case .moreThanOneElement = error as? RxError else {
        return XCTFail("Expected RxError.moreThanOneElement, got \(error)")
      }
    }
    // then
    XCTAssertEqual(calls, [1, 2, 3])
  }

  func test_toArray_rethrowsTheSequenceError() {
    // given
    let source = Observable<Int>.error(TestError(3))
    // when / then
    XCTAssertThrowsError(try source.toBlocking().toArray()) { error in
      XCTAssertEqual(error as? TestError, TestError(3))
    }
  }

  func test_first_returnsFirstElementAndDisposes() throws {
    // given
    let subject = BehaviorSubject(value: 7)
    // when
    let first = try subject.toBlocking(timeout: 1).first()
    // then
    XCTAssertEqual(first, 7)
    XCTAssertFalse(subject.hasObservers)
  }

  func test_first_emptySequenceGivesNil() throws {
    // given / when
    let first = try Observable<Int>.empty().toBlocking().first()
    // then
    XCTAssertNil(first)
  }

  func test_last_returnsLastElement() throws {
    // given / when
    let last = try Observable.of(1, 2, 3).toBlocking().last()
    // then
    XCTAssertEqual(last, 3)
  }

  func test_single_failsForEmptyAndForMoreThanOneElement() throws {
    // given / when / then
    XCTAssertEqual(try Observable.just(5).toBlocking().single(), 5)
    XCTAssertThrowsError(try Observable<Int>.empty().toBlocking().single()) { error in
      XCTAssertTrue(errorsEqual(error, RxError.noElements))
    }
    XCTAssertThrowsError(try Observable.of(1, 2).toBlocking().single()) { error in
      XCTAssertTrue(errorsEqual(error, RxError.moreThanOneElement))
    }
    XCTAssertEqual(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 }, 2)
  }

  func test_single_stopsAtTheSecondElementOfAnEndlessSequence() {
    // given
    let subject = BehaviorSubject(value: 1)
    let source = Observable<Int>.create { observer in
      let subscription = subject.subscribe(observer)
      subject.onNext(2)
      return subscription
    }
    // when / then
    XCTAssertThrowsError(try source.toBlocking(timeout: 1).single()) { error in
      XCTAssertTrue(errorsEqual(error, RxError.moreThanOneElement))
    }
    XCTAssertFalse(subject.hasObservers)
  }

  func test_materialize_reportsCompletionAndFailure() {
    // given
    let failing = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onError(TestError(4))
      return Disposables.create()
    }
    // when
    let completed = Observable.of(1, 2).toBlocking().materialize()
    let failed = failing.toBlocking().materialize()
    // then
    guard case .completed(let elements) = completed else { return XCTFail("Not completed") }
    XCTAssertEqual(elements, [1, 2])
    guard case .failed(let partial, let error) = failed else { return XCTFail("Not failed") }
    XCTAssertEqual(partial, [1])
    XCTAssertEqual(error as? TestError, TestError(4))
  }

  func test_toBlocking_timeoutThrowsAndDisposes() {
    // given
    let subject = PublishSubject<Int>()
    let start = Date()
    // when / then
    XCTAssertThrowsError(try subject.toBlocking(timeout: 0.05).first()) { error in
      XCTAssertTrue(errorsEqual(error, RxError.timeout))
    }
    XCTAssertLessThan(Date().timeIntervalSince(start), 1.5)
    XCTAssertFalse(subject.hasObservers)
  }

  func test_materialize_timeoutKeepsTheElementsSoFar() {
    // given
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      return Disposables.create()
    }
    // when
    let result = source.toBlocking(timeout: 0.05).materialize()
    // then
    guard case .failed(let elements, let error) = result else { return XCTFail("Not failed") }
    XCTAssertEqual(elements, [1])
    XCTAssertTrue(errorsEqual(error, RxError.timeout))
  }

  func test_toBlocking_onMainThreadDrainsTheMainQueue() throws {
    // given
    XCTAssertTrue(Thread.isMainThread)
    let source = Observable.of(1, 2, 3).observe(on: MainScheduler.asyncInstance)
    // when
    let values = try source.toBlocking(timeout: 2).toArray()
    // then
    XCTAssertEqual(values, [1, 2, 3])
  }

  func test_toBlocking_waitsForAnotherThread() throws {
    // given
    let source = Observable<Int>.timer(
      .milliseconds(20), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
    // when
    let values = try source.toBlocking(timeout: 2).toArray()
    // then
    XCTAssertEqual(values, [0])
  }

  func test_toBlocking_offMainThreadWithMainQueueSourceCompletes() {
    // given
    let done = expectation(description: "background wait finished")
    let result = LockedValues<[Int]>()
    // when
    DispatchQueue.global().async {
      let values = try? Observable.of(1, 2).observe(on: MainScheduler.asyncInstance)
        .toBlocking(timeout: 2).toArray()
      result.append(values ?? [])
      done.fulfill()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(result.all, [[1, 2]])
  }
}

// MARK: - Inside a trampoline

extension BlockingObservableTests {
  func test_toArray_insideASubscription_runsASynchronousSource() {
    // given: a subscription runs on the current thread's trampoline
    var received: [Int] = []
    // when
    _ = Observable<Int>.deferred {
      .from(try Observable.of(1, 2).toBlocking(timeout: 2).toArray())
    }
    .subscribe(onNext: { received.append($0) }, onError: { XCTFail("\($0)") })
    // then
    XCTAssertEqual(received, [1, 2])
  }

  func test_toArray_insideTrampolinedWork_runsASynchronousSourceAndKeepsTheQueuedWork() {
    // given
    var order: [String] = []
    // when
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      _ = CurrentThreadScheduler.instance.schedule(()) { _ in
        order.append("queued")
        return Disposables.create()
      }
      let values = try? Observable.of(1, 2).toBlocking(timeout: 2).toArray()
      order.append("blocking \(values ?? [])")
      return Disposables.create()
    }
    // then
    XCTAssertEqual(order, ["blocking [1, 2]", "queued"])
  }
}
