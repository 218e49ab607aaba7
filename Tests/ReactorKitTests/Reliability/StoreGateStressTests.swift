import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store's lock-free paths: an idle store is claimed and released with one
/// compare-and-swap each, and the published state is written without the lock while no reader
/// is present. Threads start behind a spin barrier and yield inside the store's processing, so
/// claims, releases, queued work, removals and reads race often.
final class StoreGateStressTests: ResourceTestCase {
  func test_store_idleClaimsRacingQueuedWorkReentrantDispatchAndRemovals_loseNothing() {
    // given: a subscriber that dispatches follow-ups from inside the processing
    let threads = 4
    let dispatchers = 3
    let perThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 300 : 2_000)
    let active = AtomicBox<Int>(0)
    let overlaps = AtomicBox<Int>(0)
    let store = Store(
      reducer: Reducer<GateState> { state, action in
        if active.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
          overlaps.wrappingAdd(1, ordering: .relaxed)
        }
        switch action {
        case let hit as GateHit:
          state.reduced[hit.source] += 1
          if hit.index % 5 == 0 { sched_yield() }
        case is GateEcho:
          state.echoes += 1
        default:
          break
        }
        state.total += 1
        active.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      },
      state: GateState(sources: dispatchers))
    var storeRef: Store<GateState>? = store
    var previousTotal = -1
    var outOfOrder = 0
    var echoesSent = 0
    let watcher = store.state.subscribe(onNext: { state in
      if previousTotal >= 0 && state.total != previousTotal + 1 { outOfOrder += 1 }
      previousTotal = state.total
      if state.total % 7 == 0 {
        echoesSent += 1
        // Queued: runs after this state was published to every subscriber.
        storeRef?.dispatch(GateEcho())
      }
    })
    let returnedEarly = StoreLockedBox<[String]>([])
    let received = AtomicBox<Int>(0)
    // when: three threads dispatch; the fourth subscribes and disposes at the same time
    runConcurrently(threads: threads) { thread in
      if thread == dispatchers {
        for index in 0..<perThread {
          let subscription = store.slice(\.total).subscribe(onNext: { _ in
            received.wrappingAdd(1, ordering: .relaxed)
          })
          if index % 3 == 0 { sched_yield() }
          subscription.dispose()
        }
        return
      }
      for index in 0..<perThread {
        store.dispatch(GateHit(source: thread, index: index))
        let reduced = store.currentState.reduced[thread]
        if reduced != index + 1 {
          returnedEarly.withLock { $0.append("thread \(thread) at \(index): \(reduced)") }
        }
      }
    }
    // then
    let state = store.currentState
    XCTAssertEqual(state.reduced, Array(repeating: perThread, count: dispatchers))
    XCTAssertEqual(state.echoes, echoesSent, "every queued follow-up reduced once")
    XCTAssertEqual(state.total, dispatchers * perThread + echoesSent)
    XCTAssertEqual(previousTotal, state.total)
    XCTAssertEqual(outOfOrder, 0, "the subscriber skipped or repeated a state")
    XCTAssertEqual(overlaps.load(ordering: .relaxed), 0, "reductions overlapped")
    XCTAssertEqual(returnedEarly.current, [], "dispatch returned before its action was reduced")
    XCTAssertGreaterThanOrEqual(received.load(ordering: .relaxed), perThread)
    watcher.dispose()
    storeRef = nil
  }

  func test_currentState_readByOtherThreadsWhileDispatching_isNeverTorn() {
    // given: a state of reference-counted parts that must agree with each other
    let writers = 2
    let readers = 2
    let perThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 2_000 : 10_000)
    let store = Store(
      reducer: Reducer<TornState> { state, _ in
        // Yielding here lets readers run between the writes.
        if state.count % 2 == 0 { sched_yield() }
        state.count += 1
        state.values.append(state.count)
        state.name = "n\(state.count)"
        if state.count % 3 == 0 { state.values = Array(state.values.suffix(8)) }
      },
      state: TornState())
    let finishedWriters = AtomicBox<Int>(0)
    let torn = StoreLockedBox<[String]>([])
    let reads = AtomicBox<Int>(0)
    // when
    runConcurrently(threads: writers + readers) { thread in
      if thread < writers {
        for index in 0..<perThread {
          store.dispatch(GateHit(source: thread, index: index))
        }
        finishedWriters.wrappingAdd(1, ordering: .releasing)
        return
      }
      var last = 0
      repeat {
        let state = store.currentState
        reads.wrappingAdd(1, ordering: .relaxed)
        let consistent =
          state.name == "n\(state.count)"
          && (state.count == 0 ? state.values.isEmpty : state.values.last == state.count)
        if !consistent || state.count < last {
          torn.withLock { $0.append("count \(state.count) after \(last), \(state.name)") }
        }
        last = state.count
      } while finishedWriters.load(ordering: .acquiring) < writers
    }
    // then
    XCTAssertEqual(torn.current, [], "a reader saw a torn or older state")
    XCTAssertEqual(store.currentState.count, writers * perThread)
    XCTAssertGreaterThan(reads.load(ordering: .relaxed), 0)
  }
}

private struct GateHit: Action {
  let source: Int
  let index: Int
}

private struct GateEcho: Action {}

private struct GateState {
  var reduced: [Int]
  var echoes = 0
  var total = 0

  init(sources: Int) {
    reduced = Array(repeating: 0, count: sources)
  }
}

private struct TornState {
  var count = 0
  var values: [Int] = []
  var name = "n0"
}
