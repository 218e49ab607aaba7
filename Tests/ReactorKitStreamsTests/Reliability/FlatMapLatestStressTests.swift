import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// `flatMapLatest` switched rapidly from several threads while other threads emit on the
/// inner sequences, replaced and current.
final class FlatMapLatestStressTests: ResourceTestCase {
  func test_flatMapLatest_rapidSwitchingFromSeveralThreads_deliversOnlyTheLatestInner() {
    for seed in StressConfiguration.seeds(3) {
      runSwitchingRound(seed: seed)
    }
  }

  private func runSwitchingRound(seed: UInt64) {
    // given: each outer element subscribes a fresh inner; `latest` is the newest inner's
    // generation once flatMapLatest has made it current
    let inners = InnerRegistry()
    let outer = PublishSubject<Int>()
    let delivered = LockedValues<Tagged>()
    let probe = DeliveryProbe()
    let completed = AtomicBox<Bool>(false)
    let subscription = outer.flatMapLatest { _ in inners.makeInner() }
      .subscribe(
        onNext: { element in
          probe.enter()
          delivered.append(element)
          probe.leave()
        }, onCompleted: { completed.store(true, ordering: .releasing) })
    let staleEmissions = AtomicBox<Int>(0)
    let switching = AtomicBox<Int>(3)
    let switches = StressConfiguration.iterations(200)
    let emissions = StressConfiguration.iterations(1_500)
    // when: three threads switch while two emit on recent inners, replaced or current
    runConcurrently(threads: 5) { thread in
      var generator = SeededRandomNumberGenerator(seed: seed &* 31 &+ UInt64(thread))
      if thread < 3 {
        for step in 0..<switches {
          outer.onNext(step)
          if Int.random(in: 0..<4, using: &generator) == 0 { sched_yield() }
        }
        switching.wrappingSubtract(1, ordering: .releasing)
      } else {
        // Emit at least `emissions` times, and for as long as the others switch.
        var sequence = 0
        while sequence < emissions || switching.load(ordering: .acquiring) > 0 {
          if inners.emitOnRecentInner(sequence: sequence, using: &generator) {
            staleEmissions.wrappingAdd(1, ordering: .relaxed)
          }
          sequence += 1
        }
      }
    }
    outer.onCompleted()
    inners.completeNewest()
    // then
    let elements = delivered.all
    let stale = elements.filter { $0.generation < $0.latestWhenEmitted }
    XCTAssertEqual(stale.count, 0, "seed \(seed): elements of replaced inners: \(stale.prefix(5))")
    let generations = elements.map(\.generation)
    XCTAssertEqual(generations, generations.sorted(), "seed \(seed): an older inner came back")
    XCTAssertEqual(probe.overlaps, 0, "seed \(seed): deliveries overlapped")
    XCTAssertGreaterThan(
      staleEmissions.load(ordering: .relaxed), 0, "seed \(seed): no replaced inner was tried")
    XCTAssertTrue(completed.load(ordering: .acquiring), "seed \(seed)")
    XCTAssertEqual(inners.liveCount, 0, "seed \(seed): inner subscriptions leaked")
    XCTAssertEqual(inners.created, 3 * switches, "seed \(seed)")
    XCTAssertFalse(outer.hasObservers)
    subscription.dispose()
    inners.removeAll()
  }

  func test_flatMapLatest_disposedWhileSwitchingAndEmitting_releasesEveryInner() {
    // given
    let inners = InnerRegistry()
    let outer = PublishSubject<Int>()
    let received = AtomicBox<Int>(0)
    let disposed = AtomicBox<Bool>(false)
    let late = AtomicBox<Int>(0)
    let subscription = outer.flatMapLatest { _ in inners.makeInner() }
      .subscribe(onNext: { _ in
        if disposed.load(ordering: .acquiring) { late.wrappingAdd(1, ordering: .relaxed) }
        received.wrappingAdd(1, ordering: .relaxed)
      })
    let box = UncheckedBox(subscription)
    let stop = AtomicBox<Bool>(false)
    // when: one thread disposes while the others keep switching and emitting
    runConcurrently(threads: 4) { thread in
      var generator = SeededRandomNumberGenerator(seed: StressConfiguration.seed &+ UInt64(thread))
      switch thread {
      case 0:
        while received.load(ordering: .relaxed) < 50 && !stop.load(ordering: .relaxed) {
          sched_yield()
        }
        box.value.dispose()
        disposed.store(true, ordering: .releasing)
        stop.store(true, ordering: .releasing)
      case 1:
        var step = 0
        while !stop.load(ordering: .acquiring) {
          outer.onNext(step)
          step += 1
        }
      default:
        var sequence = 0
        while !stop.load(ordering: .acquiring) {
          inners.emitOnRecentInner(sequence: sequence, using: &generator)
          sequence += 1
          if sequence > 200_000 { stop.store(true, ordering: .releasing) }
        }
      }
    }
    // then: serial delivery lets at most the event under way finish after `dispose` returned
    XCTAssertLessThanOrEqual(late.load(ordering: .acquiring), 1)
    XCTAssertEqual(inners.liveCount, 0, "inner subscriptions leaked")
    XCTAssertFalse(outer.hasObservers)
    XCTAssertGreaterThan(inners.created, 0)
    inners.removeAll()
  }
}

/// An element of one inner sequence.
private struct Tagged: Sendable {
  let generation: Int
  let latestWhenEmitted: Int
  let sequence: Int
}

/// The inner sequences created by the test's `flatMapLatest` selector. Each inner keeps its
/// observer after it was disposed, like a careless source that ignores disposal, so the test
/// can emit on replaced inners; emissions on one inner are serialised by its own lock.
private final class InnerRegistry: @unchecked Sendable {
  // Safety: `inners` and each inner's `isDisposed` are guarded by `lock`; an inner's observer
  // is only called with that inner's `emitLock` held; `newest` is atomic.
  private final class Inner {
    let generation: Int
    let observer: AnyObserver<Tagged>
    let emitLock = NSLock()
    var isDisposed = false

    init(generation: Int, observer: AnyObserver<Tagged>) {
      self.generation = generation
      self.observer = observer
    }
  }

  private let lock = NSLock()
  private var inners: [Inner] = []
  private let newest = AtomicBox<Int>(0)

  /// The generation of the newest inner that `flatMapLatest` subscribed.
  var latest: Int { newest.load(ordering: .acquiring) }

  /// Inners subscribed and not disposed.
  var liveCount: Int { lock.withLock { inners.filter { !$0.isDisposed }.count } }

  var created: Int { lock.withLock { inners.count } }

  /// An inner sequence that registers its observer when subscribed. `flatMapLatest`
  /// subscribes an inner only after making it the current one.
  func makeInner() -> Observable<Tagged> {
    Observable.create { observer in
      let inner = self.lock.withLock {
        let inner = Inner(generation: self.inners.count + 1, observer: observer)
        self.inners.append(inner)
        return inner
      }
      self.newest.store(inner.generation, ordering: .releasing)
      return Disposables.create { self.lock.withLock { inner.isDisposed = true } }
    }
  }

  /// Emits on one of the four newest inners, disposed or not, tagged with its generation and
  /// `latest` as read before emitting. Returns whether that inner had been replaced by then.
  @discardableResult
  func emitOnRecentInner(sequence: Int, using generator: inout SeededRandomNumberGenerator)
    -> Bool
  {
    let latest = self.latest
    let inner: Inner? = lock.withLock {
      guard !inners.isEmpty else { return nil }
      let recent = max(0, inners.count - 4)..<inners.count
      return inners[Int.random(in: recent, using: &generator)]
    }
    guard let inner else { return false }
    inner.emitLock.withLock {
      inner.observer.onNext(
        Tagged(generation: inner.generation, latestWhenEmitted: latest, sequence: sequence))
    }
    return inner.generation < latest
  }

  /// Forgets every inner, releasing the observers they kept.
  func removeAll() {
    let removed = lock.withLock {
      defer { inners = [] }
      return inners
    }
    withExtendedLifetime(removed) {}
  }

  /// Completes the newest inner.
  func completeNewest() {
    guard let inner = lock.withLock({ inners.last }) else { return }
    inner.emitLock.withLock { inner.observer.onCompleted() }
  }
}
