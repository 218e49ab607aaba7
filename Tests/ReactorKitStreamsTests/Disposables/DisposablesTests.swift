import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DisposablesTests: ResourceTestCase {
  private final class Counter: @unchecked Sendable {
    // Safety: only touched on the test's thread.
    var disposed: [Int] = []
    func disposable(_ id: Int) -> Disposable { Disposables.create { self.disposed.append(id) } }
  }

  func test_disposablesCreate_anyNumberOfArguments() {
    // given
    let counter = Counter()
    // when
    Disposables.create(counter.disposable(1), counter.disposable(2)).dispose()
    Disposables.create(counter.disposable(3), counter.disposable(4), counter.disposable(5))
      .dispose()
    let many = Disposables.create(
      counter.disposable(6), counter.disposable(7), counter.disposable(8),
      counter.disposable(9), counter.disposable(10), counter.disposable(11))
    XCTAssertFalse(many.isDisposed)
    many.dispose()
    Disposables.create([counter.disposable(12)]).dispose()
    // then
    XCTAssertEqual(counter.disposed, Array(1...12))
    XCTAssertTrue(many.isDisposed)
  }

  func test_compositeDisposable_fourAndMoreArguments() {
    // given
    let counter = Counter()
    let composite = CompositeDisposable(
      counter.disposable(1), counter.disposable(2), counter.disposable(3),
      counter.disposable(4), counter.disposable(5))
    // when
    XCTAssertEqual(composite.count, 5)
    composite.dispose()
    composite.insert(counter.disposable(6))
    // then
    XCTAssertEqual(counter.disposed, [1, 2, 3, 4, 5, 6])
  }

  func test_disposeBag_insertArrayVariadicAndBuilders() {
    // given
    let counter = Counter()
    var bag: DisposeBag? = DisposeBag {
      counter.disposable(1)
      counter.disposable(2)
    }
    // when
    bag?.insert([counter.disposable(3), counter.disposable(4)])
    bag?.insert(counter.disposable(5), counter.disposable(6))
    bag?.insert {
      counter.disposable(7)
      counter.disposable(8)
    }
    XCTAssertEqual(counter.disposed, [])
    bag = nil
    let other = DisposeBag(disposing: counter.disposable(9), counter.disposable(10))
    _ = other
    var arrayBag: DisposeBag? = DisposeBag(disposing: [counter.disposable(11)])
    arrayBag = nil
    // then
    XCTAssertEqual(counter.disposed, [1, 2, 3, 4, 5, 6, 7, 8, 11])
    _ = arrayBag
  }

  func test_refCountDisposable_disposesAfterPrimaryAndEveryRetain() {
    // given
    let counter = Counter()
    let refCount = RefCountDisposable(disposable: counter.disposable(1))
    let first = refCount.retain()
    let second = refCount.retain()
    // when
    refCount.dispose()
    XCTAssertEqual(counter.disposed, [])
    first.dispose()
    first.dispose()
    XCTAssertEqual(counter.disposed, [])
    XCTAssertFalse(refCount.isDisposed)
    second.dispose()
    // then
    XCTAssertEqual(counter.disposed, [1])
    XCTAssertTrue(refCount.isDisposed)
    refCount.retain().dispose()
    refCount.dispose()
    XCTAssertEqual(counter.disposed, [1])
  }

  func test_refCountDisposable_withoutRetainsDisposesAtOnce() {
    // given
    let counter = Counter()
    let refCount = RefCountDisposable(disposable: counter.disposable(1))
    // when
    refCount.dispose()
    // then
    XCTAssertEqual(counter.disposed, [1])
  }

  func test_refCountDisposable_concurrentRetainsAndDisposals_disposeExactlyOnce() {
    for round in 0..<StressConfiguration.iterations(50) {
      // given
      let disposals = AtomicBox<Int>(0)
      let refCount = RefCountDisposable(
        disposable: Disposables.create { disposals.wrappingAdd(1, ordering: .relaxed) })
      // Disposables are thread-safe; the array itself is never mutated.
      nonisolated(unsafe) let retained = (0..<4).map { _ in refCount.retain() }
      // when: the dependents and the primary are disposed from four threads at once
      runConcurrently(threads: 4) { index in
        let extra = refCount.retain()
        sched_yield()
        unsafe retained[index].dispose()
        extra.dispose()
        if index == 0 { refCount.dispose() }
      }
      // then
      XCTAssertEqual(disposals.load(ordering: .relaxed), 1, "round \(round)")
      XCTAssertTrue(refCount.isDisposed)
    }
  }

  func test_scheduledDisposable_disposesOnTheScheduler() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let counter = Counter()
    var disposedAt: [Int] = []
    let scheduled = ScheduledDisposable(
      scheduler: scheduler,
      disposable: Disposables.create { disposedAt.append(scheduler.clock) })
    _ = counter
    // when
    scheduler.scheduleAt(100) {
      scheduled.dispose()
      scheduled.dispose()
    }
    scheduler.start()
    // then
    XCTAssertTrue(scheduled.isDisposed)
    XCTAssertEqual(disposedAt, [101])
  }
}
