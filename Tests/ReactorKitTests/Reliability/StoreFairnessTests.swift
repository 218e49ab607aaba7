import Foundation
import ReactorKitTesting
import Synchronization
import XCTest

@testable import ReactorKit

/// Sustained load on a store from tasks awaiting `send`: a synchronous `dispatch` still
/// returns within a bounded number of other callers' actions, and the dispatch queue's memory
/// follows what is waiting, not what went through.
final class StoreFairnessTests: ResourceTestCase {
  /// Tasks looping `await store.send`, as many as a busy app might have.
  private let senders = 8

  func test_dispatch_whileTasksKeepSending_returnsWithinABoundedNumberOfOthersActions() {
    // given: eight tasks sending without pause to a store with a slow reducer
    let reductions = ReductionCounter()
    let store = Store(reducer: slowCountingReducer(reductions), state: 0)
    let load = SenderLoad(store: store, senders: senders, perSender: perSender)
    XCTAssertTrue(waitUntil { reductions.value >= 100 })
    // when: another thread dispatches a few times while they keep sending
    let dispatches = 20
    let between = Locked<[Int]>([])
    let returned = DispatchSemaphore(value: 0)
    Thread {
      for _ in 0..<dispatches {
        let before = reductions.value
        store.dispatch(StoreCounterAction.increment)
        let after = reductions.value
        between.withLock { $0.append(after - before - 1) }
      }
      returned.signal()
    }.start()
    let threadReturned = returned.wait(timeout: .now() + 60) == .success
    let sentWhenReturned = load.sent
    load.stop()
    // then: each dispatch waited for at most a bounded number of the tasks' actions, and the
    // tasks were still sending when the last one returned
    XCTAssertTrue(threadReturned, "the dispatching thread did not return within 60 s")
    XCTAssertTrue(load.waitForSenders(), "the sending tasks did not finish within 60 s")
    let counts = between.current
    XCTAssertEqual(counts.count, dispatches)
    XCTAssertGreaterThan(counts.reduce(0, +), 0, "no dispatch overlapped the tasks' sends")
    XCTAssertLessThanOrEqual(
      counts.max() ?? 0, Self.othersActionsBound,
      "actions of others reduced during one dispatch: \(counts)")
    XCTAssertLessThan(
      sentWhenReturned, senders * perSender, "the dispatches returned only when the tasks stopped")
    XCTAssertEqual(store.currentState, reductions.value)
  }

  func test_queue_underSustainedSends_keepsStorageProportionalToWhatIsWaiting() {
    // given: eight tasks sending without pause to a store with a slow reducer
    let reductions = ReductionCounter()
    let store = Store(reducer: slowCountingReducer(reductions), state: 0)
    let load = SenderLoad(store: store, senders: senders, perSender: perSender)
    // when: the queue's storage is sampled while they send
    var largestStorage = 0
    var largestWaiting = 0
    while !load.isFinished {
      let sample = store.core.queueStorage
      largestStorage = max(largestStorage, sample.slots)
      largestWaiting = max(largestWaiting, sample.queued)
      usleep(500)
    }
    // then: at most one action per task waits, and the storage stays within a small multiple
    XCTAssertTrue(load.waitForSenders(), "the sending tasks did not finish within 60 s")
    XCTAssertLessThanOrEqual(largestWaiting, senders)
    XCTAssertLessThanOrEqual(
      largestStorage, Self.queueStorageBound,
      "queue slots held while at most \(largestWaiting) actions waited")
    XCTAssertEqual(store.currentState, senders * perSender)
  }

  // MARK: - Helpers

  /// Sends per task: enough that an unfair store visibly overshoots the bounds below.
  private var perSender: Int {
    StressConfiguration.iterations(StoreStress.isThreadSanitizerActive ? 300 : 600)
  }

  /// Others' actions one dispatch may wait for: the hand-off budget (32 actions an owner
  /// processes for others before handing the turn on) plus, twice, one queued action per task
  /// (what was queued ahead when it blocked, and what was queued ahead of the turn it was
  /// handed), with room to spare.
  private static let othersActionsBound = 100

  /// Queue slots allowed while at most eight actions wait: the queue's compaction threshold
  /// (64 consumed slots) twice, and some.
  private static let queueStorageBound = 256
}

/// Reductions counted by the reducer, readable from any thread.
private final class ReductionCounter: Sendable {
  private let count = Atomic<Int>(0)
  var value: Int { count.load(ordering: .acquiring) }
  func increment() { count.wrappingAdd(1, ordering: .acquiringAndReleasing) }
}

/// A reducer that counts in `state` and in `reductions`, taking a few microseconds each.
private func slowCountingReducer(_ reductions: ReductionCounter) -> Reducer<Int> {
  Reducer { state, _ in
    usleep(20)
    state += 1
    reductions.increment()
  }
}

/// Tasks looping `await store.send` until told to stop or `perSender` sends each.
private final class SenderLoad: Sendable {
  private let stopped = Atomic<Bool>(false)
  private let sentCount = Atomic<Int>(0)
  private let finishedCount = Atomic<Int>(0)
  private let finished = DispatchSemaphore(value: 0)
  private let senders: Int

  init(store: Store<Int>, senders: Int, perSender: Int) {
    self.senders = senders
    let box = UncheckedReference(store)
    for _ in 0..<senders {
      Task.detached { [self] in
        var sent = 0
        while sent < perSender && !self.stopped.load(ordering: .acquiring) {
          await box.value.send(StoreCounterAction.increment)
          sent += 1
          self.sentCount.wrappingAdd(1, ordering: .relaxed)
        }
        self.finishedCount.wrappingAdd(1, ordering: .acquiringAndReleasing)
        self.finished.signal()
      }
    }
  }

  /// Sends completed so far.
  var sent: Int { sentCount.load(ordering: .relaxed) }

  /// Whether every task has stopped.
  var isFinished: Bool { finishedCount.load(ordering: .acquiring) == senders }

  func stop() { stopped.store(true, ordering: .releasing) }

  /// Waits up to 60 s for every task to stop; returns whether they did.
  func waitForSenders() -> Bool {
    let deadline = DispatchTime.now() + 60
    for _ in 0..<senders where finished.wait(timeout: deadline) == .timedOut { return false }
    return true
  }
}

/// Shares a reference with tasks and threads in these tests.
private struct UncheckedReference<Value: AnyObject>: @unchecked Sendable {
  // Safety: the referenced object, a store, is thread-safe.
  let value: Value
  init(_ value: Value) { self.value = value }
}
