import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// Eight threads dispatching to one store whose middleware dispatches more actions: from
/// inside the chain (queued), after `next` (redux form) and later from other threads.
final class StoreStressTests: ResourceTestCase {
  func test_store_eightThreadsWithDispatchingMiddleware_reduceEveryActionExactlyOnce() {
    // given
    let threads = 8
    let perThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 300 : 1_500)
    let log = ReductionLog()
    let lateDispatches = DispatchGroup()
    let store = Store(
      reducer: .combine(
        Reducer<StressState.WorkState>.on(Work.self) { state, work in
          state.reduced[work.source] += 1
          if work.depth > 0 { state.followUps[work.source] += 1 }
        }.lift(\StressState.work),
        Reducer<Int>.on(Audit.self) { audits, _ in audits += 1 }.lift(\StressState.audits),
        Reducer<Int>.on(Late.self) { late, _ in late += 1 }.lift(\StressState.late),
        Reducer<StressState> { state, action in
          // Not synchronised on purpose: the thread sanitizer reports overlapping reductions.
          log.record(action)
          state.total += 1
        }),
      state: StressState(threads: threads),
      middleware: StoreStressPlan.middleware(lateDispatches: lateDispatches))
    var previousTotal = -1
    var outOfOrder = 0
    let watcher = store.slice(\.total).subscribe(onNext: { total in
      if previousTotal >= 0 && total != previousTotal + 1 { outOfOrder += 1 }
      previousTotal = total
    })
    let returnedEarly = StoreLockedBox<[String]>([])
    // when
    runConcurrently(threads: threads) { thread in
      for index in 0..<perThread {
        store.dispatch(Work(source: thread, index: index, depth: 0))
        store.dispatch(Noise())
        // Everything this dispatch caused inside the chain is reduced before it returns.
        let reduced = store.currentState.work.reduced[thread]
        let expected = StoreStressPlan.reductions(upTo: index + 1)
        if reduced != expected {
          returnedEarly.withLock { $0.append("thread \(thread) at \(index): \(reduced)") }
        }
      }
    }
    XCTAssertEqual(lateDispatches.wait(timeout: .now() + 30), .success)
    // then
    let expected = StoreStressPlan.expectedActions(threads: threads, perThread: perThread)
    let reduced = log.entries
    XCTAssertEqual(reduced.count, expected.count, "every action reduced once, none dropped")
    XCTAssertEqual(Set(reduced), expected, "the reduced actions are exactly those dispatched")
    let state = store.currentState
    XCTAssertEqual(state.total, expected.count)
    XCTAssertEqual(
      state.work.reduced,
      Array(repeating: StoreStressPlan.reductions(upTo: perThread), count: threads))
    XCTAssertEqual(state.audits, expected.filter { $0.hasPrefix("audit") }.count)
    XCTAssertEqual(state.late, expected.filter { $0.hasPrefix("late") }.count)
    XCTAssertEqual(previousTotal, state.total)
    XCTAssertEqual(outOfOrder, 0, "the slice skipped or repeated a state")
    XCTAssertEqual(returnedEarly.current, [], "dispatch returned before its follow-ups")
    watcher.dispose()
  }
}

// MARK: - The plan

private struct Work: Action {
  let source: Int
  let index: Int
  let depth: Int
}

private struct Audit: Action {
  let source: Int
  let index: Int
}

private struct Late: Action {
  let source: Int
  let index: Int
}

/// Dropped by the middleware: must never be reduced.
private struct Noise: Action {}

private struct StressState {
  struct WorkState {
    var reduced: [Int]
    var followUps: [Int]
  }

  var work: WorkState
  var audits = 0
  var late = 0
  var total = 0

  init(threads: Int) {
    work = WorkState(
      reduced: Array(repeating: 0, count: threads), followUps: Array(repeating: 0, count: threads))
  }
}

/// What the middleware does, and the actions that must therefore be reduced.
private enum StoreStressPlan {
  /// - Every fourth top-level `Work` dispatches a depth-1 follow-up from inside the chain,
  ///   which dispatches a depth-2 follow-up in turn.
  /// - Every seventh top-level `Work` dispatches an `Audit` after `next` (redux form).
  /// - Every fiftieth top-level `Work` dispatches a `Late` from another thread, later.
  /// - `Noise` is dropped.
  static func middleware(lateDispatches: DispatchGroup) -> [Middleware<StressState>] {
    let followUps = Middleware<StressState>().sideEffect { _, dispatch, action in
      guard let work = action as? Work, work.depth < 2 else { return }
      if work.depth == 1 || work.index.isMultiple(of: 4) {
        dispatch(Work(source: work.source, index: work.index, depth: work.depth + 1))
      }
    }
    let audits = Middleware<StressState>.redux { _, dispatch in
      { next in
        { action in
          next(action)
          if let work = action as? Work, work.depth == 0, work.index.isMultiple(of: 7) {
            dispatch(Audit(source: work.source, index: work.index))
          }
        }
      }
    }
    let late = Middleware<StressState>().sideEffect { _, dispatch, action in
      guard let work = action as? Work, work.depth == 0, work.index.isMultiple(of: 50) else {
        return
      }
      let send = UncheckedSendableDispatch(dispatch)
      lateDispatches.enter()
      DispatchQueue.global().async {
        send.dispatch(Late(source: work.source, index: work.index))
        lateDispatches.leave()
      }
    }
    let dropNoise = Middleware<StressState>().filter { _, action in !(action is Noise) }
    return [dropNoise, followUps, audits, late]
  }

  /// `Work` reductions of one source after its first `count` top-level dispatches returned.
  static func reductions(upTo count: Int) -> Int {
    count + 2 * ((count + 3) / 4)
  }

  static func expectedActions(threads: Int, perThread: Int) -> Set<String> {
    var expected = Set<String>()
    for source in 0..<threads {
      for index in 0..<perThread {
        expected.insert("work \(source) \(index) 0")
        if index.isMultiple(of: 4) {
          expected.insert("work \(source) \(index) 1")
          expected.insert("work \(source) \(index) 2")
        }
        if index.isMultiple(of: 7) { expected.insert("audit \(source) \(index)") }
        if index.isMultiple(of: 50) { expected.insert("late \(source) \(index)") }
      }
    }
    return expected
  }
}

/// Hands a middleware's `dispatch` to another thread: the store's `dispatch` is thread-safe.
private struct UncheckedSendableDispatch: @unchecked Sendable {
  // Safety: the closure calls `Store.dispatch` through a weak reference; the store is
  // thread-safe.
  let dispatch: (any Action) -> Void
  init(_ dispatch: @escaping (any Action) -> Void) { self.dispatch = dispatch }
}

/// The actions the reducer saw, recorded without synchronisation: the store must never run
/// two reductions at once, and the thread sanitizer reports it if it does.
private final class ReductionLog: @unchecked Sendable {
  // Safety: deliberately unsynchronised; only the store's serial reductions touch it.
  private var recorded: [String] = []

  var entries: [String] { recorded }

  func record(_ action: any Action) {
    switch action {
    case let work as Work: recorded.append("work \(work.source) \(work.index) \(work.depth)")
    case let audit as Audit: recorded.append("audit \(audit.source) \(audit.index)")
    case let late as Late: recorded.append("late \(late.source) \(late.index)")
    default: recorded.append("unexpected \(action)")
    }
  }
}
