import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Inners whose elements are known up front (`just`, `of`), delivered without a subscription,
/// mixed with inners that emit on other threads, while two threads feed the outer sequence.
final class MergeSynchronousInnerStressTests: ResourceTestCase {
  func test_flatMap_synchronousInnersBesideConcurrentInners_deliverEveryElementOnceAndSerially() {
    for seed in StressConfiguration.seeds(2) {
      runFlatMapRound(seed: seed)
    }
  }

  private func runFlatMapRound(seed: UInt64) {
    // given
    let outer = PublishSubject<Int>()
    let probe = DeliveryProbe()
    let received = LockedValues<Int>()
    let completions = AtomicBox<Int>(0)
    let afterCompletion = AtomicBox<Int>(0)
    let queue = DispatchQueue(label: "inners", attributes: .concurrent)
    let subscription = outer.flatMap { makeInner(key: $0, queue: queue) }
      .subscribe(
        onNext: { value in
          if completions.load(ordering: .acquiring) > 0 {
            afterCompletion.wrappingAdd(1, ordering: .relaxed)
          }
          probe.enter()
          received.append(value)
          probe.leave()
        }, onCompleted: { completions.wrappingAdd(1, ordering: .releasing) })
    let perThread = StressConfiguration.iterations(600)
    // when
    runConcurrently(threads: 2) { thread in
      feed(outer, thread: thread, count: perThread, seed: seed)
    }
    outer.onCompleted()
    runMainLoopUntil { completions.load(ordering: .acquiring) > 0 }
    // then
    let values = received.all
    let expected = (0..<2 * perThread).flatMap(elements(ofKey:))
    XCTAssertEqual(values.sorted(), expected.sorted(), "seed \(seed)")
    let byKey = Dictionary(grouping: values) { $0 / 4 }
    for (key, elements) in byKey where elements != elements.sorted() {
      XCTFail("seed \(seed): inner \(key) was reordered: \(elements)")
    }
    XCTAssertEqual(probe.overlaps, 0, "seed \(seed): deliveries overlapped")
    XCTAssertEqual(completions.load(ordering: .acquiring), 1, "seed \(seed)")
    XCTAssertEqual(afterCompletion.load(ordering: .acquiring), 0, "seed \(seed)")
    XCTAssertFalse(outer.hasObservers)
    subscription.dispose()
  }

  func test_concatMap_synchronousInnersStartedFromOtherThreads_keepTheOuterOrder() {
    for seed in StressConfiguration.seeds(2) {
      runConcatMapRound(seed: seed)
    }
  }

  private func runConcatMapRound(seed: UInt64) {
    // given: the selector records the outer order; an asynchronous inner's completion starts
    // the waiting inners on its queue while the feeding threads queue more
    let outer = PublishSubject<Int>()
    let order = LockedValues<Int>()
    let probe = DeliveryProbe()
    let received = LockedValues<Int>()
    let completions = AtomicBox<Int>(0)
    let queue = DispatchQueue(label: "inners", attributes: .concurrent)
    let subscription = outer.concatMap { key -> Observable<Int> in
      order.append(key)
      return makeInner(key: key, queue: queue)
    }
    .subscribe(
      onNext: { value in
        probe.enter()
        received.append(value)
        probe.leave()
      }, onCompleted: { completions.wrappingAdd(1, ordering: .releasing) })
    let perThread = StressConfiguration.iterations(300)
    // when
    runConcurrently(threads: 2) { thread in
      feed(outer, thread: thread, count: perThread, seed: seed)
    }
    outer.onCompleted()
    runMainLoopUntil { completions.load(ordering: .acquiring) > 0 }
    // then
    XCTAssertEqual(
      received.all, order.all.flatMap(elements(ofKey:)), "seed \(seed): inners overlapped")
    XCTAssertEqual(probe.overlaps, 0, "seed \(seed): deliveries overlapped")
    XCTAssertEqual(completions.load(ordering: .acquiring), 1, "seed \(seed)")
    subscription.dispose()
  }

  func test_flatMap_disposedWhileSynchronousInnersRunOnTwoThreads_stopsPromptly() {
    // given
    let outer = PublishSubject<Int>()
    let queue = DispatchQueue(label: "inners", attributes: .concurrent)
    let delivered = AtomicBox<Int>(0)
    let disposed = AtomicBox<Bool>(false)
    let late = AtomicBox<Int>(0)
    let subscription = outer.flatMap { makeInner(key: $0, queue: queue) }
      .subscribe(onNext: { _ in
        if disposed.load(ordering: .acquiring) { late.wrappingAdd(1, ordering: .relaxed) }
        delivered.wrappingAdd(1, ordering: .relaxed)
      })
    let box = UncheckedBox(subscription)
    // when: one thread disposes while two keep feeding the outer sequence
    runConcurrently(threads: 3) { thread in
      if thread == 2 {
        XCTAssertTrue(
          spinUntil { delivered.load(ordering: .relaxed) >= 300 },
          "waited 10 s for: delivered.load(ordering: .relaxed) >= 300")
        box.value.dispose()
        disposed.store(true, ordering: .releasing)
      } else {
        var step = 0
        while !disposed.load(ordering: .acquiring) && step < 200_000 {
          outer.onNext(step * 2 + thread)
          step += 1
        }
      }
    }
    // then: at most the delivery under way when `dispose()` returned may finish after it
    XCTAssertLessThanOrEqual(late.load(ordering: .acquiring), 1)
    XCTAssertFalse(outer.hasObservers)
  }
}

/// Feeds `count` keys (`step * 2 + thread`) into `outer`, yielding now and then.
private func feed(_ outer: PublishSubject<Int>, thread: Int, count: Int, seed: UInt64) {
  var generator = SeededRandomNumberGenerator(seed: seed &* 31 &+ UInt64(thread))
  for step in 0..<count {
    outer.onNext(step * 2 + thread)
    if Int.random(in: 0..<8, using: &generator) == 0 { sched_yield() }
  }
}

/// The elements of inner `key`: three for keys `0` and `1` modulo 3, one for the others.
private func elements(ofKey key: Int) -> [Int] {
  key % 3 == 2 ? [key * 4] : [key * 4, key * 4 + 1, key * 4 + 2]
}

/// Inner `key`: asynchronous on `queue` (emitting from its threads) for keys divisible by 3,
/// otherwise `of` or `just`, whose elements are known up front.
private func makeInner(key: Int, queue: DispatchQueue) -> Observable<Int> {
  let values = elements(ofKey: key)
  switch key % 3 {
  case 0:
    return Observable.create { observer in
      let box = UncheckedBox(observer)
      queue.async {
        for value in values { box.value.onNext(value) }
        box.value.onCompleted()
      }
      return Disposables.create()
    }
  case 1:
    return Observable.from(values)
  default:
    return Observable.just(values[0])
  }
}
