import Foundation
import ReactorKitStreams
import ReactorKitTesting
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
    let deadline = DispatchTime.now() + 60  // a store that stops reducing must not hang the run
    while !load.isFinished, DispatchTime.now() < deadline {
      let sample = store.core.queueStorage
      largestStorage = max(largestStorage, sample.slots)
      largestWaiting = max(largestWaiting, sample.queued)
      usleep(500)
    }
    // then: at most one action per task waits, and the storage stays within a small multiple
    XCTAssertTrue(load.isFinished, "the sending tasks did not finish within 60 s")
    load.stop()
    XCTAssertTrue(load.waitForSenders(), "the sending tasks did not stop within 60 s")
    XCTAssertLessThanOrEqual(largestWaiting, senders)
    XCTAssertLessThanOrEqual(
      largestStorage, Self.queueStorageBound,
      "queue slots held while at most \(largestWaiting) actions waited")
    XCTAssertEqual(store.currentState, senders * perSender)
  }

  func test_dispatch_whileTheTurnIsHandedToATaskThatCannotRun_takesTheTurnInstead() {
    // given: a thread holds the turn while 33 tasks wait in `send`
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let store = Store(
      reducer: Reducer<Int> { state, action in
        if action is Hold {
          holding.signal()
          release.wait()
        }
        state += 1
      }, state: 0)
    let core = store.core
    Thread { store.dispatch(Hold()) }.start()
    XCTAssertEqual(holding.wait(timeout: .now() + 10), .success)
    let waitingTasks = StoreDispatchStateMachine.handOffBudget + 1
    let tasksDone = ReductionCounter()
    for _ in 0..<waitingTasks {
      Task.detached {
        await store.send(StoreCounterAction.increment)
        tasksDone.increment()
      }
    }
    XCTAssertTrue(waitUntil { core.queueDiagnostics.queued == waitingTasks })
    // and every thread of the tasks' executor blocks on something else
    let poolWidth = ProcessInfo.processInfo.activeProcessorCount
    let blockers = DispatchSemaphore(value: 0)
    let blocked = ReductionCounter()
    for _ in 0..<poolWidth {
      Task.detached {
        blocked.increment()
        blockers.wait()
      }
    }
    XCTAssertTrue(waitUntil { blocked.value == poolWidth })
    // when: the holder finishes, processes the budget for others and hands the turn to the
    // last task, which cannot run; then a thread dispatches
    release.signal()
    XCTAssertTrue(waitUntil { isHandingOff(core) }, "the turn must be handed to the last task")
    usleep(50_000)
    XCTAssertTrue(isHandingOff(core), "the heir ran: the executor was not saturated")
    let returned = DispatchSemaphore(value: 0)
    Thread {
      store.dispatch(StoreCounterAction.increment)
      returned.signal()
    }.start()
    // then: the thread takes the turn instead of waiting for the task, and processes the
    // task's action too
    let threadReturned = returned.wait(timeout: .now() + 10) == .success
    XCTAssertEqual(store.currentState, 1 + waitingTasks + 1)
    for _ in 0..<poolWidth { blockers.signal() }
    XCTAssertTrue(threadReturned, "the dispatch waited for a task that cannot run")
    XCTAssertTrue(
      waitUntil { tasksDone.value == waitingTasks }, "every task resumes")
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

/// An action whose reduction blocks until the test releases it.
private struct Hold: Action {}

/// Whether `core`'s turn is being handed off right now.
private func isHandingOff<State>(_ core: StoreCore<State>) -> Bool {
  core.lock.withLock {
    if case .handingOff = core.locked.machine.state { return true }
    return false
  }
}

/// A counter readable from any thread (reductions, tasks).
private final class ReductionCounter: Sendable {
  private let count = AtomicBox<Int>(0)
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
  private let stopped = AtomicBox<Bool>(false)
  private let sentCount = AtomicBox<Int>(0)
  private let finishedCount = AtomicBox<Int>(0)
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
