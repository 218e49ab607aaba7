import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Engine: StoreCore.swift and StoreDispatchStateMachine.swift (turns across threads and
/// tasks: one processor at a time, every action reduced exactly once, the turn handed on).
final class StoreConcurrencyTests: ResourceTestCase {
  func test_store_eightThreadsDispatchConcurrently_eachActionReducedExactlyOnceInOneOrder() {
    // given
    let threads = 8
    let perThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 10_000 : 50_000)
    let reductions = UnsynchronizedCounter()
    let store = Store(
      reducer: Reducer<StressState> { state, action in
        guard let hit = action as? Hit else { return }
        // Not synchronised on purpose: the thread sanitizer reports overlapping reductions.
        reductions.value += 1
        state.total += 1
        state.perThread[hit.thread] += 1
      }, state: StressState(threads: threads))
    let outOfOrder = StoreLockedBox(0)
    let notifications = UnsynchronizedCounter()
    var previousTotal = -1
    let subscription = store.state.subscribe(onNext: { state in
      if previousTotal >= 0 { notifications.value += 1 }
      if state.total != previousTotal + 1 { outOfOrder.withLock { $0 += 1 } }
      previousTotal = state.total
    })
    let notYetReducedOnReturn = StoreLockedBox(0)
    // when
    runConcurrently(threads: threads) { thread in
      for index in 1...perThread {
        store.dispatch(Hit(thread: thread))
        if store.currentState.perThread[thread] != index {
          notYetReducedOnReturn.withLock { $0 += 1 }
        }
      }
    }
    // then
    let expected = threads * perThread
    XCTAssertEqual(reductions.value, expected)
    XCTAssertEqual(notifications.value, expected)
    XCTAssertEqual(store.currentState.total, expected)
    XCTAssertEqual(store.currentState.perThread, Array(repeating: perThread, count: threads))
    XCTAssertEqual(outOfOrder.current, 0, "Subscribers must see every state, in order.")
    XCTAssertEqual(
      notYetReducedOnReturn.current, 0, "dispatch must return after its action was reduced.")
    subscription.dispose()
  }

  func test_store_mixedSyncAsyncReentrantAndMiddlewareDispatch_everyCallerSeesItsOwnWork() async {
    // given: a middleware that turns every tenth hit into a follow-up dispatch, a redux stage
    // around `next`, two dispatching threads, one sending task and a churning subscriber
    let perSource = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 1_000 : 5_000)
    let followUps = Middleware<MixedState>().sideEffect { _, dispatch, action in
      if let hit = action as? MixedHit, hit.sequence.isMultiple(of: 10) {
        dispatch(MixedFollowUp(source: hit.source))
      }
    }
    let redux = Middleware<MixedState>.redux { _, _ in { next in { action in next(action) } } }
    let store = Store(
      reducer: Reducer<MixedState> { state, action in
        state.total += 1
        if let hit = action as? MixedHit { state.hits[hit.source] += 1 }
        if let followUp = action as? MixedFollowUp { state.followUps[followUp.source] += 1 }
      }, state: MixedState(), middleware: [followUps, redux])
    let violations = StoreLockedBox<[String]>([])
    var lastTotal = -1
    let watcher = store.slice(\.total).subscribe(onNext: { total in
      if lastTotal >= 0 && total != lastTotal + 1 {
        violations.withLock { $0.append("total jumped from \(lastTotal) to \(total)") }
      }
      lastTotal = total
    })
    @Sendable func check(_ state: MixedState, source: Int, sequence: Int) {
      if state.hits[source] != sequence || state.followUps[source] != sequence / 10 {
        violations.withLock {
          $0.append("source \(source) returned before its work at \(sequence): \(state)")
        }
      }
    }
    // when
    let sender = Task.detached {
      for sequence in 1...perSource {
        await store.send(MixedHit(source: 2, sequence: sequence))
        check(store.currentState, source: 2, sequence: sequence)
      }
    }
    runConcurrently(threads: 3) { thread in
      if thread < 2 {
        for sequence in 1...perSource {
          store.dispatch(MixedHit(source: thread, sequence: sequence))
          check(store.currentState, source: thread, sequence: sequence)
        }
      } else {
        for _ in 0..<(perSource / 10) {
          store.slice(\.hits).subscribe(onNext: { _ in }).dispose()
        }
      }
    }
    await sender.value
    // then
    let state = store.currentState
    XCTAssertEqual(state.hits, [perSource, perSource, perSource])
    XCTAssertEqual(state.followUps, Array(repeating: perSource / 10, count: 3))
    XCTAssertEqual(state.total, 3 * (perSource + perSource / 10))
    XCTAssertEqual(lastTotal, state.total)
    XCTAssertEqual(violations.current, [])
    watcher.dispose()
  }

  func test_store_dispatchFromAnotherThreadWhileBusyWaitsItsTurn() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let log = StoreLockedBox<[String]>([])
    let otherReturned = DispatchSemaphore(value: 0)
    let subscription = store.actions.subscribe(onNext: { action in
      log.withLock { $0.append("reduce \(describeStoreAction(action))") }
      guard case StoreCounterAction.add(1) = action else { return }
      // While this thread processes add(1), another thread dispatches add(2).
      Thread {
        store.dispatch(StoreCounterAction.add(2))
        log.withLock { $0.append("other returned at \(store.currentState.count)") }
        otherReturned.signal()
      }.start()
      XCTAssertTrue(
        waitUntil { store.core.queueDiagnostics == (queued: 1, blockedThreads: 1) },
        "The other thread must block in dispatch while the store is busy.")
      log.withLock { $0.append("first done") }
    })
    // when
    store.dispatch(StoreCounterAction.add(1))
    log.withLock { $0.append("first returned") }
    // then
    XCTAssertEqual(otherReturned.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(store.currentState.count, 3)
    let entries = log.current
    XCTAssertEqual(
      Array(entries.prefix(3)), ["reduce add(1)", "first done", "reduce add(2)"],
      "add(2) must be reduced after add(1) was fully processed.")
    XCTAssertEqual(Set(entries.suffix(2)), ["first returned", "other returned at 3"])
    subscription.dispose()
  }

  func test_store_ownerHandsTheTurnToABlockedThreadAfterItsBudget() async {
    // given: while the main dispatch runs, 40 tasks and one blocked thread queue work
    let store = Store(
      reducer: Reducer<[UInt64]> { state, _ in state.append(currentThreadID()) }, state: [])
    let mainThread = StoreLockedBox<UInt64>(0)
    let blockedThread = StoreLockedBox<UInt64>(0)
    let blockedReturned = DispatchSemaphore(value: 0)
    let tasks = StoreLockedBox<[Task<Void, Never>]>([])
    var calls = 0
    let subscription = store.state.subscribe(onNext: { _ in
      calls += 1
      guard calls == 2 else { return }
      for _ in 0..<40 {
        tasks.withLock { list in
          list.append(Task.detached { await store.send(StoreCounterAction.increment) })
        }
      }
      XCTAssertTrue(waitUntil { store.core.queueDiagnostics.queued == 40 })
      Thread {
        blockedThread.withLock { $0 = currentThreadID() }
        store.dispatch(StoreCounterAction.increment)
        blockedReturned.signal()
      }.start()
      XCTAssertTrue(waitUntil { store.core.queueDiagnostics == (queued: 41, blockedThreads: 1) })
    })
    // when
    let done = DispatchSemaphore(value: 0)
    Thread {
      mainThread.withLock { $0 = currentThreadID() }
      store.dispatch(StoreCounterAction.increment)
      done.signal()
    }.start()
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(blockedReturned.wait(timeout: .now() + 10), .success)
    for task in tasks.current { await task.value }
    // then: the first owner processed its own action and 32 for others, then handed over
    let threads = store.currentState
    XCTAssertEqual(threads.count, 42)
    XCTAssertEqual(threads.prefix(33).filter { $0 == mainThread.current }.count, 33)
    XCTAssertEqual(threads.suffix(9).filter { $0 == blockedThread.current }.count, 9)
    subscription.dispose()
  }

  func test_store_subscribingFromAnotherThreadWhileBusySeesEveryStateOnce() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let received = StoreLockedBox<[Int]>([])
    let otherSubscription = StoreLockedBox<Disposable?>(nil)
    let subscribed = DispatchSemaphore(value: 0)
    let trigger = store.slice(\.count).subscribe(onNext: { count in
      guard count == 1 else { return }
      Thread {
        let subscription = store.slice(\.count).subscribe(onNext: { value in
          received.withLock { $0.append(value) }
        })
        otherSubscription.withLock { $0 = subscription }
        subscribed.signal()
      }.start()
      XCTAssertTrue(waitUntil { store.core.queueDiagnostics.blockedThreads == 1 })
      store.dispatch(StoreCounterAction.increment)
    })
    // when
    store.dispatch(StoreCounterAction.increment)
    XCTAssertEqual(subscribed.wait(timeout: .now() + 10), .success)
    store.dispatch(StoreCounterAction.increment)
    // then: subscribed after count 1 was published, before the queued increment ran
    XCTAssertEqual(received.current, [1, 2, 3])
    trigger.dispose()
    otherSubscription.current?.dispose()
  }

  func test_store_concurrentSubscribeDisposeWhileDispatching_noLossNoLeak() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let rounds = StressConfiguration.iterations(300)
    let violations = StoreLockedBox(0)
    // when: two threads dispatch while two others subscribe to slices and dispose
    runConcurrently(threads: 4) { thread in
      if thread < 2 {
        for _ in 0..<rounds { store.dispatch(StoreCounterAction.increment) }
      } else {
        for _ in 0..<rounds {
          var last = -1
          let subscription = store.slice(\.count).subscribe(onNext: { count in
            if count <= last { violations.withLock { $0 += 1 } }
            last = count
          })
          sched_yield()
          subscription.dispose()
        }
      }
    }
    // then
    XCTAssertEqual(store.currentState.count, 2 * rounds)
    XCTAssertEqual(violations.current, 0, "A slice must emit strictly increasing counts here.")
  }

  func test_store_sendReturnsAfterTheActionWasReduced() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    // when
    await store.send(StoreCounterAction.add(2))
    await store.send(StoreCounterAction.increment)
    // then
    XCTAssertEqual(store.currentState.count, 3)
  }

  @MainActor
  func test_store_sendFromMainActorWhileAnotherThreadIsBusy() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let release = DispatchSemaphore(value: 0)
    let busy = DispatchSemaphore(value: 0)
    let subscription = store.actions.subscribe(onNext: { action in
      if case StoreCounterAction.add(1) = action {
        busy.signal()
        release.wait()
      }
    })
    Thread { store.dispatch(StoreCounterAction.add(1)) }.start()
    busy.wait()
    // when: the store is busy; the task suspends instead of blocking
    async let sent: Void = store.send(StoreCounterAction.add(10))
    XCTAssertTrue(waitUntil { store.core.queueDiagnostics == (queued: 1, blockedThreads: 0) })
    release.signal()
    await sent
    // then
    XCTAssertEqual(store.currentState.count, 11)
    subscription.dispose()
  }

  func test_store_statesYieldsCurrentStateThenEachNewState() async {
    // given
    let store = Store(reducer: Reducer<Int> { state, _ in state += 1 }, state: 10)
    var iterator = store.states.makeAsyncIterator()
    // when
    let first = await iterator.next()
    store.dispatch(StoreCounterAction.increment)
    await store.send(StoreCounterAction.increment)
    let second = await iterator.next()
    let third = await iterator.next()
    // then
    XCTAssertEqual([first, second, third], [10, 11, 12])
  }

  func test_store_statesEndsWhenTheStoreIsFreedAndReleasesItsSubscription() async {
    // given
    let start = Resources.total
    var store: Store<Int>? = Store(reducer: Reducer<Int> { state, _ in state += 1 }, state: 0)
    let states = store!.states
    store!.dispatch(StoreCounterAction.increment)
    // when
    store = nil
    var received: [Int] = []
    for await state in states { received.append(state) }
    // then
    XCTAssertEqual(received, [0, 1])
    XCTAssertEqual(Resources.total, start)
  }

  func test_store_statesCancellationDisposesTheSubscription() async {
    // given
    let store = Store(reducer: Reducer<Int> { state, _ in state += 1 }, state: 0)
    let start = Resources.total
    let firstReceived = DispatchSemaphore(value: 0)
    let task = Task {
      for await _ in store.states { firstReceived.signal() }
    }
    XCTAssertEqual(firstReceived.wait(timeout: .now() + 10), .success)
    XCTAssertGreaterThan(Resources.total, start)
    // when
    task.cancel()
    await task.value
    // then
    XCTAssertTrue(waitUntil { Resources.total == start })
    store.dispatch(StoreCounterAction.increment)
  }
}

/// Helpers for the store's stress tests. Their counts scale with
/// `StressConfiguration.iterations(_:)` (`STRESS_ITERATIONS`), from smaller defaults under the
/// thread sanitizer, which is about ten times slower.
enum StoreStress {
  /// Whether the thread sanitizer's runtime is linked into this process.
  static let isThreadSanitizerActive: Bool = {
    guard let handle = unsafe dlopen(nil, RTLD_NOW) else { return false }
    defer { unsafe dlclose(handle) }
    return unsafe dlsym(handle, "__tsan_init") != nil
  }()
}

/// The calling thread's identity, for tests that check where work ran.
func currentThreadID() -> UInt64 {
  #if canImport(Darwin)
    return UInt64(UInt(bitPattern: pthread_self()))
  #else
    return UInt64(pthread_self())
  #endif
}

private struct MixedHit: Action {
  let source: Int
  let sequence: Int
}

private struct MixedFollowUp: Action {
  let source: Int
}

private struct MixedState: Equatable, Sendable {
  var total = 0
  var hits = [0, 0, 0]
  var followUps = [0, 0, 0]
}

private struct Hit: Action {
  let thread: Int
}

private struct StressState {
  var total = 0
  var perThread: [Int]

  init(threads: Int) {
    perThread = Array(repeating: 0, count: threads)
  }
}

/// A counter with no synchronisation, so that the thread sanitizer reports concurrent use.
private final class UnsynchronizedCounter: @unchecked Sendable {
  // Safety: deliberately unsynchronised; tests use it only where the code under test must
  // serialise access.
  var value = 0
}
