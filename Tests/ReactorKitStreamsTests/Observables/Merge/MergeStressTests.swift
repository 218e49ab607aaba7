import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MergeStressTests: ResourceTestCase {
  private let threads = 8
  private let perThread = 2_000

  func test_merge_concurrentSourcesDeliverEveryElementOnceAndSerially() {
    // given
    let subjects = (0..<threads).map { _ in PublishSubject<Int>() }
    let probe = DeliveryProbe()
    let received = LockedValues<Int>()
    let subscription = Observable.merge(subjects.map { $0.asObservable() })
      .subscribe(onNext: { value in
        probe.enter()
        received.append(value)
        probe.leave()
      })
    let perThread = self.perThread
    // when
    runConcurrently(threads: threads) { index in
      for step in 0..<perThread { subjects[index].onNext(index * perThread + step) }
    }
    // then
    let values = received.all
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertEqual(values.sorted(), Array(0..<threads * perThread))
    for index in 0..<threads {
      let fromSource = values.filter { $0 / perThread == index }
      XCTAssertEqual(fromSource, fromSource.sorted(), "Source \(index) was reordered")
    }
    subscription.dispose()
  }

  func test_flatMap_concurrentInnersAndOuterDeliverEveryElementOnceAndSerially() {
    // given
    let inners = (0..<threads).map { _ in PublishSubject<Int>() }
    let outer = PublishSubject<Int>()
    let probe = DeliveryProbe()
    let received = LockedValues<Int>()
    let subscription = outer.flatMap { index -> Observable<Int> in
      index < 0 ? Observable.just(index) : inners[index].asObservable()
    }
    .subscribe(onNext: { value in
      probe.enter()
      received.append(value)
      probe.leave()
    })
    for index in 0..<threads { outer.onNext(index) }
    let perThread = self.perThread
    let threads = self.threads
    // when
    runConcurrently(threads: threads + 1) { index in
      if index == threads {
        // The outer sequence keeps producing synchronous inners meanwhile.
        for step in 1...perThread { outer.onNext(-step) }
      } else {
        for step in 0..<perThread { inners[index].onNext(index * perThread + step) }
      }
    }
    // then
    let values = received.all
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertEqual(
      values.sorted(), Array(-perThread..<0) + Array(0..<threads * perThread))
    subscription.dispose()
  }

  func test_merge_concurrentErrorsDeliverExactlyOneTerminalEvent() {
    for _ in 0..<50 {
      // given
      let subjects = (0..<4).map { _ in PublishSubject<Int>() }
      let terminals = AtomicBox<Int>(0)
      let afterTerminal = AtomicBox<Int>(0)
      let subscription = Observable.merge(subjects.map { $0.asObservable() })
        .subscribe { event in
          if terminals.load(ordering: .acquiring) > 0 {
            afterTerminal.wrappingAdd(1, ordering: .relaxed)
          }
          if event.isStopEvent { terminals.wrappingAdd(1, ordering: .acquiringAndReleasing) }
        }
      // when
      runConcurrently(threads: 4) { index in
        for step in 0..<20 { subjects[index].onNext(step) }
        subjects[index].onError(TestError(index))
        subjects[index].onNext(99)
      }
      // then
      XCTAssertEqual(terminals.load(ordering: .acquiring), 1)
      XCTAssertEqual(afterTerminal.load(ordering: .acquiring), 0)
      for subject in subjects { XCTAssertFalse(subject.hasObservers) }
      subscription.dispose()
    }
  }

  func test_flatMap_concurrentDisposeStopsDeliveryPromptly() {
    for _ in 0..<10 {
      // given
      let inners = (0..<4).map { _ in PublishSubject<Int>() }
      let outer = PublishSubject<Int>()
      let disposed = AtomicBox<Bool>(false)
      let lateDeliveries = AtomicBox<Int>(0)
      let delivered = AtomicBox<Int>(0)
      let subscription = outer.flatMap { inners[$0].asObservable() }
        .subscribe(onNext: { _ in
          if disposed.load(ordering: .acquiring) {
            lateDeliveries.wrappingAdd(1, ordering: .relaxed)
          }
          delivered.wrappingAdd(1, ordering: .relaxed)
        })
      for index in 0..<4 { outer.onNext(index) }
      let box = UncheckedBox(subscription)
      // when
      runConcurrently(threads: 5) { index in
        if index == 4 {
          XCTAssertTrue(
            spinUntil { delivered.load(ordering: .relaxed) >= 100 },
            "waited 10 s for: delivered.load(ordering: .relaxed) >= 100")
          box.value.dispose()
          disposed.store(true, ordering: .releasing)
        } else {
          for step in 0..<1_000 { inners[index].onNext(step) }
        }
      }
      // then
      // Delivery is serial, so at most the one event already under way when `dispose()`
      // returned may still arrive; nothing starts after it.
      XCTAssertLessThanOrEqual(lateDeliveries.load(ordering: .acquiring), 1)
      for inner in inners { XCTAssertFalse(inner.hasObservers) }
      XCTAssertFalse(outer.hasObservers)
    }
  }

  func test_flatMapLatest_concurrentSwitchingStaysSerial() {
    // given
    let inners = (0..<4).map { _ in PublishSubject<Int>() }
    let outer = PublishSubject<Int>()
    let probe = DeliveryProbe()
    var completed = false
    let subscription = outer.flatMapLatest { inners[$0].asObservable() }
      .subscribe(
        onNext: { _ in
          probe.enter()
          probe.leave()
        }, onCompleted: { completed = true })
    // when
    runConcurrently(threads: 5) { index in
      if index == 4 {
        for step in 0..<400 { outer.onNext(step % 4) }
      } else {
        for step in 0..<1_000 { inners[index].onNext(step) }
      }
    }
    outer.onNext(0)
    outer.onCompleted()
    inners[0].onNext(1)
    inners[0].onCompleted()
    // then
    XCTAssertEqual(probe.overlaps, 0, "Deliveries overlapped")
    XCTAssertGreaterThan(probe.count, 0)
    XCTAssertTrue(completed)
    for inner in inners { XCTAssertFalse(inner.hasObservers) }
    subscription.dispose()
  }
}

/// Hands a non-`Sendable` value to test threads that use it one at a time.
final class UncheckedBox<Value>: @unchecked Sendable {
  // Safety: tests only use `value` from one thread at a time.
  let value: Value
  init(_ value: Value) { self.value = value }
}
