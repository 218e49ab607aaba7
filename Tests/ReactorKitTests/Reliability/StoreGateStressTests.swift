import Foundation
import ReactorKit
import ReactorKitTesting
import Synchronization
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The store's lock-free paths: the published state is written without the lock while no
/// reader is present. Threads start behind a spin barrier and yield inside the store's
/// processing, so writes and reads race often.
final class StoreGateStressTests: ResourceTestCase {
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
    let finishedWriters = Atomic<Int>(0)
    let torn = StoreLockedBox<[String]>([])
    let reads = Atomic<Int>(0)
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

private struct TornState {
  var count = 0
  var values: [Int] = []
  var name = "n0"
}
