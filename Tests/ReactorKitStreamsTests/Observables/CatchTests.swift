import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class CatchTests: ResourceTestCase {
  func test_catch_continuesWithReplacementAfterError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(230, TestError(1))])
    let replacement = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    var caught: [Error] = []
    // when
    let observer = scheduler.start {
      source.asObservable().catch { error in
        caught.append(error)
        return replacement.asObservable()
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(240, 2), .completed(250)])
    XCTAssertEqual(caught.count, 1)
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
    XCTAssertEqual(replacement.subscriptions, [Subscription(230, 250)])
  }

  func test_catch_completionWithoutErrorSkipsHandler() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    var called = false
    // when
    let observer = scheduler.start {
      source.asObservable().catch { _ in
        called = true
        return .empty()
      }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(230)])
    XCTAssertFalse(called)
  }

  func test_catch_throwingHandlerAndFailingReplacement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.error(210, TestError(1), Int.self)])
    // when
    let thrown = scheduler.start {
      source.asObservable().catch { _ in throw TestError(2) }
    }
    // then
    XCTAssertEqual(thrown.events, [.error(210, TestError(2))])
  }

  func test_catch_replacementErrorIsForwarded() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.error(210, TestError(1), Int.self)])
    // when
    let observer = scheduler.start {
      source.asObservable().catch { _ in .error(TestError(3)) }
    }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(3))])
  }

  func test_catch_disposalEndsReplacement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.error(210, TestError(1), Int.self)])
    let replacement = scheduler.createColdObservable([.next(10, 2), .next(200, 3)])
    // when
    let observer = scheduler.start(disposed: 300) {
      source.asObservable().catch { _ in replacement.asObservable() }
    }
    // then
    XCTAssertEqual(observer.events, [.next(220, 2)])
    XCTAssertEqual(replacement.subscriptions, [Subscription(210, 300)])
  }

  func test_catchAndReturn_completesWithElement() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1))])
    // when
    let observer = scheduler.start { source.catchAndReturn(-1) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, -1), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_retry_resubscribesUpToMaxAttemptsAndForwardsLastError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
    // when
    let observer = scheduler.start { source.retry(3) }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError(1))])
    XCTAssertEqual(
      source.subscriptions,
      [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
  }

  func test_retry_completesWhenAnAttemptCompletes() {
    // given
    var attempts = 0
    let source = Observable<Int>.deferred {
      attempts += 1
      return attempts < 3 ? .error(TestError(attempts)) : .just(attempts)
    }
    var events: [Event<Int>] = []
    // when
    let subscription = source.retry().subscribe { events.append($0) }
    // then
    XCTAssertEqual(events, [.next(3), .completed])
    XCTAssertEqual(attempts, 3)
    subscription.dispose()
  }

  func test_retry_manySynchronousFailuresUseConstantStack() {
    // given
    var attempts = 0
    let source = Observable<Int>.deferred {
      attempts += 1
      return .error(TestError(1))
    }
    var errors = 0
    // when
    let subscription = source.retry(20_000).subscribe(onError: { _ in errors += 1 })
    // then
    XCTAssertEqual(attempts, 20_000)
    XCTAssertEqual(errors, 1)
    subscription.dispose()
  }

  func test_retry_zeroAttemptsCompletesWithoutSubscribing() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1)])
    // when
    let observer = scheduler.start { source.retry(0) }
    // then
    XCTAssertEqual(observer.events, [.completed(200)])
    XCTAssertEqual(source.subscriptions, [])
  }

  func test_retry_disposalStopsRetrying() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .error(50, TestError(1))])
    // when
    let observer = scheduler.start(disposed: 270) { source.retry() }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(260, 1)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 250), Subscription(250, 270)])
  }

  func test_catchSequence_movesToTheNextSourceOnError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
    let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
    let third = scheduler.createColdObservable([.next(10, 3), .completed(20)])
    // when
    let observer = scheduler.start { Observable.catch(sequence: [first, second, third]) }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(230, 2), .completed(240)])
    XCTAssertEqual(first.subscriptions, [Subscription(200, 220)])
    XCTAssertEqual(second.subscriptions, [Subscription(220, 240)])
    XCTAssertEqual(third.subscriptions, [])
  }

  func test_catchSequence_allFailingEndsWithTheLastErrorAndEmptyCompletes() throws {
    // given
    let sources = [Observable<Int>.error(TestError(1)), .error(TestError(2))]
    // when
    let result = Observable.catch(sequence: sources).toBlocking().materialize()
    let empty = try Observable.catch(sequence: [Observable<Int>]()).toBlocking().toArray()
    // then
    guard case .failed(let elements, let error) = result else { return XCTFail("\(result)") }
    XCTAssertEqual(elements, [])
    XCTAssertEqual(error as? TestError, TestError(2))
    XCTAssertEqual(empty, [])
  }

  func test_catchSequence_disposalStopsTheCurrentSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createColdObservable([.error(10, TestError(1), Int.self)])
    let second = scheduler.createColdObservable([.next(30, 2), .completed(40)])
    // when
    let observer = scheduler.start(disposed: 220) {
      Observable.catch(sequence: [first, second])
    }
    // then
    XCTAssertEqual(observer.events, [])
    XCTAssertEqual(second.subscriptions, [Subscription(210, 220)])
  }
}

final class RetryWhenTests: ResourceTestCase {
  func test_retryWhen_resubscribesWhenTriggerEmits() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .error(20, TestError(1))])
    let trigger = scheduler.createColdObservable([.next(30, ()), .completed(40)])
    // when
    let observer = scheduler.start(disposed: 300) {
      source.retry(when: { (errors: Observable<TestError>) in
        errors.flatMap { _ in trigger }
      })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(260, 1)])
    XCTAssertEqual(
      source.subscriptions, [Subscription(200, 220), Subscription(250, 270)])
  }

  func test_retryWhen_triggerErrorAndCompletionEndTheResult() {
    // given
    var attempts = 0
    let source = Observable<Int>.deferred {
      attempts += 1
      return .error(TestError(attempts))
    }
    var failed: [Event<Int>] = []
    var completed: [Event<Int>] = []
    // when
    let first = source.retry(when: { (errors: Observable<Error>) in
      errors.enumerated().flatMap { index, error -> Observable<Void> in
        index < 2 ? .just(()) : .error(error)
      }
    }).subscribe { failed.append($0) }
    let second = source.retry(when: { (errors: Observable<Error>) in
      errors.take(1)
    }).subscribe { completed.append($0) }
    // then
    XCTAssertEqual(failed, [.error(TestError(3))])
    XCTAssertEqual(completed, [.completed])
    XCTAssertEqual(attempts, 3 + 1, "take(1) completes before the second attempt starts")
    first.dispose()
    second.dispose()
  }

  func test_retryWhen_errorOfOtherTypeEndsAtOnce() {
    // given
    struct Other: Error {}
    var handled = 0
    var events: [Event<Int>] = []
    // when
    let subscription = Observable<Int>.error(Other())
      .retry(when: { (errors: Observable<TestError>) in
        errors.map { _ in handled += 1 }
      })
      .subscribe { events.append($0) }
    // then
    XCTAssertEqual(events.count, 1)
    XCTAssertTrue(events.first?.error is Other)
    XCTAssertEqual(handled, 0)
    subscription.dispose()
  }

  func test_retryWhen_completionOfSourceCompletes() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createColdObservable([.next(10, 1), .completed(20)])
    // when
    let observer = scheduler.start {
      source.retry(when: { (errors: Observable<Error>) in errors })
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .completed(220)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 220)])
  }

  func test_retryWhen_synchronousRetriesUseConstantStack() {
    // given
    var attempts = 0
    let source = Observable<Int>.deferred {
      attempts += 1
      return .error(TestError(1))
    }
    var events: [Event<Int>] = []
    // when
    let subscription = source.retry(when: { (errors: Observable<Error>) in
      errors.take(5_000)
    }).subscribe { events.append($0) }
    // then
    // The last trigger element is followed at once by the trigger's completion, which ends
    // the result before the pending resubscription starts (as in RxSwift).
    XCTAssertEqual(attempts, 5_000)
    XCTAssertEqual(events, [.completed])
    subscription.dispose()
  }
}
