import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// The effects middleware under threads: several threads dispatch actions whose effects answer
/// from a concurrent queue, replace each other (latest wins) and are cancelled, while the
/// answers dispatch back from the queue's threads; then the store is freed mid-flight.
final class EffectStressTests: ResourceTestCase {
  func test_effects_threadsDispatchingCancellingAndAnswering_latestAnswerArrivesAndNothingLeaks() {
    // given
    let threads = 4
    let perThread = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 100 : 500)
    let background = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
    weak var weakStore: Store<StressSearchState>?
    do {
      let store = Store(
        reducer: stressSearchReducer, state: StressSearchState(threads: threads),
        middleware: [stressSearchEffects(on: background)])
      weakStore = store
      // when
      runConcurrently(threads: threads) { thread in
        for index in 0..<perThread {
          store.dispatch(StressQuery(thread: thread, index: index))
          if index % 7 == 3 { store.dispatch(StressCancel(thread: thread)) }
          if index % 5 == 0 { sched_yield() }
        }
      }
      // then: each thread's last query is never cancelled, so its answer arrives
      let arrived = waitUntil {
        store.currentState.latest == Array(repeating: perThread - 1, count: threads)
      }
      let state = store.currentState
      XCTAssertTrue(arrived, "The last answers did not all arrive: \(state.latest).")
      for thread in 0..<threads {
        XCTAssertLessThanOrEqual(state.answers[thread], perThread)
        XCTAssertEqual(state.duplicates[thread], 0, "thread \(thread) answered a query twice")
      }
    }
    // then: freed with its effects
    XCTAssertTrue(waitUntil { weakStore == nil }, "The store was not freed.")
  }

  func test_effects_storeFreedWhileEffectsEmitOnOtherThreads_stopsThemAll() {
    // given: effects that keep answering from a background queue
    let background = SerialDispatchQueueScheduler(qos: .userInitiated)
    let rounds = StressConfiguration.iterations(StoreStress.isThreadSanitizerActive ? 10 : 40)
    for round in 0..<rounds {
      let reductions = AtomicBox<Int>(0)
      var store: Store<Int>? = Store(
        reducer: Reducer { count, _ in
          count += 1
          reductions.add(1, ordering: .relaxed)
        },
        state: 0,
        middleware: [
          .effects { action, _ in
            guard action is StressStart else { return .none }
            return Effect(
              Observable<Int>.interval(.microseconds(50), scheduler: background)
                .map { _ in StressTick() })
          }
        ])
      weak let weakStore = store
      let running = store!
      runConcurrently(threads: 2) { _ in
        for _ in 0..<3 { running.dispatch(StressStart()) }
      }
      _ = waitUntil { reductions.load(ordering: .relaxed) > 20 }
      // when
      store = nil
      _ = consume running
      // then: freed (an answer being dispatched on the background thread holds the store
      // until it is reduced), and nothing is reduced afterwards
      XCTAssertTrue(waitUntil { weakStore == nil }, "round \(round): the store was not freed")
      let afterFree = reductions.load(ordering: .acquiring)
      usleep(2_000)
      XCTAssertEqual(reductions.load(ordering: .acquiring), afterFree, "round \(round)")
    }
  }
}

// MARK: - Fixtures

private struct StressQuery: Action {
  let thread: Int
  let index: Int
}

private struct StressAnswer: Action {
  let thread: Int
  let index: Int
}

private struct StressCancel: Action {
  let thread: Int
}

private struct StressStart: Action {}
private struct StressTick: Action {}

private struct StressSearchState {
  var latest: [Int]
  var answers: [Int]
  var duplicates: [Int]
  var answered: [Set<Int>]

  init(threads: Int) {
    latest = Array(repeating: -1, count: threads)
    answers = Array(repeating: 0, count: threads)
    duplicates = Array(repeating: 0, count: threads)
    answered = Array(repeating: [], count: threads)
  }
}

private let stressSearchReducer = Reducer<StressSearchState>.on(StressAnswer.self) {
  state, answer in
  state.answers[answer.thread] += 1
  if !state.answered[answer.thread].insert(answer.index).inserted {
    state.duplicates[answer.thread] += 1
  }
  state.latest[answer.thread] = max(state.latest[answer.thread], answer.index)
}

/// Answers each query from `scheduler` after a short delay; a thread's newer query cancels its
/// older one, and `StressCancel` cancels the thread's search.
private func stressSearchEffects(on scheduler: SchedulerType) -> Middleware<StressSearchState> {
  .effects { action, _ in
    switch action {
    case let query as StressQuery:
      return Effect(
        Observable.just(StressAnswer(thread: query.thread, index: query.index))
          .delay(.microseconds(20 * (query.index % 5)), scheduler: scheduler)
      )
      .cancellable(id: query.thread, cancelInFlight: true)
    case let cancel as StressCancel:
      return .cancel(id: cancel.thread)
    default:
      return .none
    }
  }
}
