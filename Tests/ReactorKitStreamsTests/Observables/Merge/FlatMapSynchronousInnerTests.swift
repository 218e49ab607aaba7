import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// The merge family delivers inners whose elements are known up front (`just`, `empty`, `of`)
/// without subscribing them. These tests pin what a subscription would give: queue order,
/// completion, errors, disposal, reentrancy and the trampoline.
final class FlatMapSynchronousInnerTests: ResourceTestCase {
  // MARK: Ordering

  func test_flatMap_synchronousInnersInterleaveWithRunningInnerInArrivalOrder() {
    // given
    let outer = PublishSubject<Int>()
    let running = PublishSubject<Int>()
    var values: [Int] = []
    let subscription = outer.flatMap { $0 == 0 ? running.asObservable() : .of($0, -$0) }
      .subscribe(onNext: { values.append($0) })
    // when
    outer.onNext(0)
    running.onNext(100)
    outer.onNext(1)
    running.onNext(101)
    outer.onNext(2)
    // then
    XCTAssertEqual(values, [100, 1, -1, 101, 2, -2])
    subscription.dispose()
  }

  func test_concatMap_synchronousInnersWaitBehindTheRunningInner() {
    // given
    let outer = PublishSubject<Int>()
    let gate = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = outer.concatMap { value -> Observable<Int> in
      switch value {
      case 0: gate.asObservable()
      case 2: .empty()
      case 3: .of(30, 31)
      default: .just(value * 10)
      }
    }
    .subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    outer.onNext(2)
    outer.onNext(3)
    gate.onNext(5)
    outer.onNext(4)
    outer.onCompleted()
    XCTAssertEqual(events, [.next(5)], "a later just-inner overtook the running inner")
    // when
    gate.onCompleted()
    // then
    XCTAssertEqual(events, [.next(5), .next(10), .next(30), .next(31), .next(40), .completed])
    XCTAssertFalse(gate.hasObservers)
    subscription.dispose()
  }

  func test_mergeMaxConcurrent_synchronousInnerTakesItsTurnInTheQueue() {
    // given: two running inners fill both slots
    let outer = PublishSubject<Observable<Int>>()
    let first = PublishSubject<Int>()
    let second = PublishSubject<Int>()
    let third = PublishSubject<Int>()
    var values: [Int] = []
    let subscription = outer.merge(maxConcurrent: 2).subscribe(onNext: { values.append($0) })
    outer.onNext(first.asObservable())
    outer.onNext(second.asObservable())
    outer.onNext(.just(1))
    outer.onNext(third.asObservable())
    outer.onNext(.of(2, 3))
    first.onNext(100)
    second.onNext(200)
    XCTAssertEqual(values, [100, 200])
    // when: a slot frees, the just runs, then the next waiting inner takes the slot
    first.onCompleted()
    // then
    XCTAssertEqual(values, [100, 200, 1])
    XCTAssertTrue(third.hasObservers)
    // when
    third.onNext(300)
    second.onCompleted()
    // then
    XCTAssertEqual(values, [100, 200, 1, 300, 2, 3])
    subscription.dispose()
  }

  // MARK: Completion

  func test_flatMap_synchronousInnersCompleteOnlyWithTheOuter() {
    // given
    let outer = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = outer.flatMap { Observable.of($0, $0) }.subscribe { events.append($0) }
    outer.onNext(1)
    outer.onNext(2)
    XCTAssertEqual(events, [.next(1), .next(1), .next(2), .next(2)])
    // when
    outer.onCompleted()
    // then
    XCTAssertEqual(events, [.next(1), .next(1), .next(2), .next(2), .completed])
    subscription.dispose()
  }

  func test_flatMap_completesAfterTheRunningInnerWhenOnlySynchronousInnersFollowed() {
    // given
    let outer = PublishSubject<Int>()
    let running = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = outer.flatMap { $0 == 0 ? running.asObservable() : .just($0) }
      .subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    outer.onNext(2)
    outer.onCompleted()
    XCTAssertEqual(events, [.next(1), .next(2)])
    // when
    running.onCompleted()
    // then
    XCTAssertEqual(events, [.next(1), .next(2), .completed])
    subscription.dispose()
  }

  func test_merge_ofSynchronousSourcesDeliversThemLikeRxSwiftThenCompletes() {
    // given
    var events: [Event<Int>] = []
    // when
    let subscription = Observable.merge(.just(1), .empty(), .of(2, 3), .just(4))
      .subscribe { events.append($0) }
    // then: `just` emits while subscribed; `of` starts on the trampoline once the subscribing
    // call is done, as in RxSwift
    XCTAssertEqual(events, [.next(1), .next(4), .next(2), .next(3), .completed])
    subscription.dispose()
  }

  // MARK: Errors

  func test_flatMap_runningInnerErrorStopsLaterSynchronousInners() {
    // given
    let outer = PublishSubject<Int>()
    let running = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = outer.flatMap { $0 == 0 ? running.asObservable() : .just($0) }
      .subscribe { events.append($0) }
    outer.onNext(0)
    outer.onNext(1)
    // when
    running.onError(TestError(1))
    outer.onNext(2)
    // then
    XCTAssertEqual(events, [.next(1), .error(TestError(1))])
    XCTAssertFalse(outer.hasObservers)
    subscription.dispose()
  }

  func test_flatMap_errorDuringSynchronousInnerStopsItsRemainingElements() {
    // given: delivering 1 makes another inner fail
    let outer = PublishSubject<Int>()
    let other = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = outer.flatMap { $0 == 0 ? other.asObservable() : .of(1, 2, 3) }
      .subscribe { event in
        events.append(event)
        if event == .next(1) { other.onError(TestError(2)) }
      }
    outer.onNext(0)
    // when
    outer.onNext(1)
    // then
    XCTAssertEqual(events, [.next(1), .error(TestError(2))])
    XCTAssertFalse(outer.hasObservers)
    subscription.dispose()
  }

  func test_flatMap_errorInnerAndThrowingSelectorAfterSynchronousInners() {
    // given
    let outer = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = outer.flatMap { value -> Observable<Int> in
      if value == 3 { throw TestError(3) }
      return value == 2 ? .error(TestError(4)) : .of(value, value)
    }
    .subscribe { events.append($0) }
    // when
    outer.onNext(1)
    outer.onNext(2)
    outer.onNext(3)
    // then
    XCTAssertEqual(events, [.next(1), .next(1), .error(TestError(4))])
    XCTAssertFalse(outer.hasObservers)
    subscription.dispose()
  }

  // MARK: Disposal

  func test_flatMap_disposedInTheMiddleOfSynchronousInnerDeliversNothingMore() {
    // given
    let outer = PublishSubject<Int>()
    var values: [Int] = []
    let subscription = SerialDisposable()
    subscription.disposable = outer.flatMap { _ in Observable.of(1, 2, 3, 4) }
      .subscribe(onNext: { value in
        values.append(value)
        if value == 2 { subscription.dispose() }
      })
    // when
    outer.onNext(0)
    outer.onNext(1)
    // then
    XCTAssertEqual(values, [1, 2])
    XCTAssertFalse(outer.hasObservers)
  }

  func test_concatMap_disposedInTheMiddleOfSynchronousInnerStartsNoWaitingInner() {
    // given: three inners wait behind `gate`
    let outer = PublishSubject<Int>()
    let gate = PublishSubject<Int>()
    var values: [Int] = []
    let subscription = SerialDisposable()
    subscription.disposable = outer.concatMap { value in
      value == 0 ? gate.asObservable() : .of(value, value * 10)
    }
    .subscribe(onNext: { value in
      values.append(value)
      if value == 1 { subscription.dispose() }
    })
    outer.onNext(0)
    outer.onNext(1)
    outer.onNext(2)
    outer.onNext(3)
    // when
    gate.onCompleted()
    // then
    XCTAssertEqual(values, [1])
    XCTAssertFalse(outer.hasObservers)
  }

  // MARK: Reentrancy

  func test_flatMap_elementSentUpstreamFromSynchronousInnerWaitsForItsRemainingElements() {
    // given
    let subject = PublishSubject<Int>()
    var log: [String] = []
    let subscription = subject.flatMap { Observable.of($0, $0 + 100) }
      .subscribe(onNext: { value in
        log.append("start \(value)")
        if value < 3 { subject.onNext(value + 1) }
        log.append("end \(value)")
      })
    // when
    subject.onNext(1)
    // then
    XCTAssertEqual(
      log,
      [
        "start 1", "end 1", "start 101", "end 101", "start 2", "end 2", "start 102", "end 102",
        "start 3", "end 3", "start 103", "end 103",
      ])
    subscription.dispose()
  }

  func test_concatMap_reentrantOuterCompletionWaitsForQueuedSynchronousInners() {
    // given: delivering 1 sends 2, then completes the outer, from inside the delivery
    let subject = PublishSubject<Int>()
    var events: [Event<Int>] = []
    let subscription = subject.concatMap { Observable.of($0, $0 * 10) }
      .subscribe { event in
        events.append(event)
        if event == .next(1) {
          subject.onNext(2)
          subject.onCompleted()
        }
      }
    // when
    subject.onNext(1)
    // then
    XCTAssertEqual(events, [.next(1), .next(10), .next(2), .next(20), .completed])
    subscription.dispose()
  }

  func test_flatMapLatest_synchronousInnerReplacedWhileDeliveringDropsItsRemainingElements() {
    // given: an outer source that forwards a reentrant element at once
    var outerObserver: AnyObserver<Int>?
    let outer = Observable<Int>.create { observer in
      outerObserver = observer
      return Disposables.create()
    }
    var events: [Event<Int>] = []
    let subscription = outer.flatMapLatest { Observable.of($0, $0 * 10) }
      .subscribe { event in
        events.append(event)
        if event == .next(1) { outerObserver?.onNext(2) }
      }
    // when
    outerObserver?.onNext(1)
    outerObserver?.onCompleted()
    // then
    XCTAssertEqual(events, [.next(1), .next(2), .next(20), .completed])
    subscription.dispose()
    outerObserver = nil
  }

  // MARK: Trampoline

  func test_flatMap_ofInnerInsideTrampolinedWorkWaitsLikeASubscription() {
    // given
    let subject = PublishSubject<Int>()
    var values: [Int] = []
    var valuesInsideWork: [Int] = []
    let subscription = subject.flatMap { value -> Observable<Int> in
      value == 0 ? .just(0) : .of(value, value * 10)
    }
    .subscribe(onNext: { values.append($0) })
    // when
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      subject.onNext(0)
      subject.onNext(1)
      valuesInsideWork = values
      return Disposables.create()
    }
    // then: `just` ignores the scheduler; `of` runs after the work, as subscribed it would
    XCTAssertEqual(valuesInsideWork, [0])
    XCTAssertEqual(values, [0, 1, 10])
    subscription.dispose()
  }
}
