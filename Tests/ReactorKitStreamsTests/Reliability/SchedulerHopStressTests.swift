import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Elements from eight producer threads hopping between schedulers with `observe(on:)`.
final class SchedulerHopStressTests: ResourceTestCase {
  func test_observeOn_randomHopChainsFromEightProducers_keepEachProducersOrder() {
    for seed in StressConfiguration.seeds(4) {
      runHopChain(seed: seed)
    }
  }

  private func runHopChain(seed: UInt64) {
    // given: a random chain of hops that leaves on a serial queue and comes back to it
    var generator = SeededRandomNumberGenerator(seed: seed)
    let home = SerialDispatchQueueScheduler(internalSerialQueueName: "test.hop.home")
    let away = SerialDispatchQueueScheduler(internalSerialQueueName: "test.hop.away")
    let concurrent = ConcurrentDispatchQueueScheduler(qos: .default)
    let candidates: [(String, ImmediateSchedulerType)] = [
      ("away", away), ("concurrent", concurrent),
      ("currentThread", CurrentThreadScheduler.instance),
    ]
    var chain: [(String, ImmediateSchedulerType)] = [("home", home)]
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      chain.append(candidates[Int.random(in: 0..<candidates.count, using: &generator)])
    }
    chain.append(("home", home))
    let names = chain.map(\.0).joined(separator: " → ")
    let subject = PublishSubject<Int>()
    let hopped = chain.reduce(subject.asObservable()) { observable, hop in
      observable.observe(on: hop.1)
    }
    let producers = 8
    let perProducer = StressConfiguration.iterations(250)
    let received = LockedValues<Int>()
    let probe = DeliveryProbe()
    let done = DispatchSemaphore(value: 0)
    let subscription = hopped.subscribe(
      onNext: { value in
        probe.enter()
        received.append(value)
        probe.leave()
      }, onCompleted: { done.signal() })
    // when
    runConcurrently(threads: producers) { producer in
      for index in 0..<perProducer { subject.onNext(producer * 1_000_000 + index) }
    }
    subject.onCompleted()
    // then
    XCTAssertEqual(done.wait(timeout: .now() + 30), .success, "seed \(seed): \(names)")
    let all = received.all
    XCTAssertEqual(all.count, producers * perProducer, "seed \(seed): \(names)")
    for producer in 0..<producers {
      let mine = all.filter { $0 / 1_000_000 == producer }.map { $0 % 1_000_000 }
      XCTAssertEqual(mine, Array(0..<perProducer), "seed \(seed): \(names), producer \(producer)")
    }
    XCTAssertEqual(probe.overlaps, 0, "seed \(seed): \(names): deliveries overlapped")
    subscription.dispose()
  }

  func test_observeOn_disposedWhileProducersEmit_stopsDelivering_andReleasesTheChain() {
    for round in 0..<StressConfiguration.iterations(5) {
      // given
      let first = SerialDispatchQueueScheduler(internalSerialQueueName: "test.hop.first")
      let second = SerialDispatchQueueScheduler(internalSerialQueueName: "test.hop.second")
      let subject = PublishSubject<Int>()
      let disposed = AtomicBox<Bool>(false)
      let delivered = AtomicBox<Int>(0)
      let late = AtomicBox<Int>(0)
      let subscription =
        subject
        .observe(on: first).map { $0 + 1 }.observe(on: second).observe(on: first)
        .subscribe(onNext: { _ in
          if disposed.load(ordering: .acquiring) { late.wrappingAdd(1, ordering: .relaxed) }
          delivered.wrappingAdd(1, ordering: .relaxed)
        })
      let box = UncheckedBox(subscription)
      // when: one thread disposes after some deliveries while four keep emitting
      runConcurrently(threads: 5) { thread in
        if thread == 4 {
          XCTAssertTrue(
            spinUntil { delivered.load(ordering: .relaxed) >= 100 },
            "waited 10 s for: delivered.load(ordering: .relaxed) >= 100")
          box.value.dispose()
          disposed.store(true, ordering: .releasing)
        } else {
          for index in 0..<2_000 { subject.onNext(index) }
        }
      }
      // Let the queues finish the drains already scheduled.
      let flushed = DispatchSemaphore(value: 0)
      _ = second.schedule(()) { _ in
        _ = first.schedule(()) { _ in
          flushed.signal()
          return Disposables.create()
        }
        return Disposables.create()
      }
      XCTAssertEqual(flushed.wait(timeout: .now() + 10), .success)
      // then: at most the delivery under way when `dispose` returned finishes afterwards
      XCTAssertLessThanOrEqual(late.load(ordering: .acquiring), 1, "round \(round)")
      XCTAssertFalse(subject.hasObservers, "round \(round)")
    }
  }
}
