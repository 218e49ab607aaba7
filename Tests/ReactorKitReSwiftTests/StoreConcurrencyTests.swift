import Foundation
import ReactorKitReSwift
import XCTest

import var ReactorKitTesting.defaultConcurrencyTimeout
import func ReactorKitTesting.runConcurrentlyWithin
import func ReactorKitTesting.spinUntil

/// The facade is thread-safe where ReSwift traps: dispatch, subscribe, unsubscribe and
/// middleware replacement from many threads at once. Every wait is bounded.
final class StoreConcurrencyTests: XCTestCase {
  func test_dispatchFromEightThreads_reducesEachActionOnceAndNotifiesInOrder() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscriber = Recorder<Int?>()
    store.subscribe(subscriber) { $0.select(\.value) }
    let perThread = 400

    // when
    let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 8) { _ in
      for _ in 0..<perThread {
        store.dispatch(Increment())
        sched_yield()
      }
    }

    // then
    XCTAssertTrue(finished, "the dispatching threads did not finish in time")
    XCTAssertEqual(store.state.value, 8 * perThread)
    XCTAssertEqual(subscriber.received.compactMap { $0 }, Array(1...(8 * perThread)))
  }

  func test_subscribeAndUnsubscribeWhileOtherThreadsDispatch_eachSubscriberSeesOrderedStates() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscribers = (0..<6).map { _ in Recorder<Int?>() }

    // when
    let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 4) { index in
      if index < 2 {
        for _ in 0..<500 { store.dispatch(Increment()) }
      } else {
        for round in 0..<150 {
          let subscriber = subscribers[(round + index) % subscribers.count]
          store.subscribe(subscriber) { $0.select(\.value) }
          sched_yield()
          if round % 3 == 0 { store.unsubscribe(subscriber) }
        }
      }
    }

    // then: a subscription starts at the current value and never goes back or repeats
    XCTAssertTrue(finished, "the threads did not finish in time")
    XCTAssertEqual(store.state.value, 1000)
    for subscriber in subscribers {
      var runs: [[Int]] = []
      for value in subscriber.received.map({ $0 ?? 0 }) {
        if let last = runs.last?.last, value > last {
          runs[runs.count - 1].append(value)
        } else {
          runs.append([value])
        }
      }
      for run in runs { XCTAssertEqual(run, Array(Set(run)).sorted()) }
    }
  }

  func test_subscribeWhileAnotherThreadDispatches_seesEveryStateFromItsFirstWithoutGaps() {
    for _ in 0..<20 {
      // given
      let store = Store(reducer: counterReducer, state: CounterState())
      let subscriber = Recorder<Int?>()

      // when: one thread dispatches 1...300 while the other subscribes midway
      let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 2) { index in
        if index == 0 {
          for _ in 0..<300 { store.dispatch(Increment()) }
        } else {
          XCTAssertTrue(
            spinUntil { (store.state.value ?? 0) >= 50 },
            "waited 10 s for: (store.state.value ?? 0) >= 50")
          store.subscribe(subscriber) { $0.select(\.value) }
        }
      }

      // then: the current value at once, then each later one exactly once, in order
      XCTAssertTrue(finished, "the threads did not finish in time")
      let values = subscriber.received.map { $0 ?? 0 }
      XCTAssertEqual(values.last, 300)
      if let first = values.first {
        XCTAssertEqual(values, Array(first...300))
      }
    }
  }

  func test_replaceMiddlewareWhileOtherThreadsDispatch_eachActionReducedOnce() {
    // given
    let passed = Locked(0)
    let counting = UncheckedBox<Middleware<CounterState>> { _, _ in
      { next in
        { action in
          passed.update { $0 += 1 }
          next(action)
        }
      }
    }

    // the chain is never empty, so every action passes `counting` at least once
    let store = Store(
      reducer: counterReducer, state: CounterState(), middleware: [counting.value])

    // when
    let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 4) { index in
      if index < 3 {
        for _ in 0..<300 { store.dispatch(Increment()) }
      } else {
        for round in 0..<200 {
          store.middleware =
            round.isMultiple(of: 2) ? [counting.value] : [counting.value, counting.value]
          sched_yield()
        }
      }
    }

    // then
    XCTAssertTrue(finished, "the threads did not finish in time")
    XCTAssertEqual(store.state.value, 900)
    XCTAssertGreaterThanOrEqual(passed.value, 900)
    XCTAssertEqual(store.middleware.count, 2)
  }

  func test_subscriberDispatchingWhileAnotherThreadDispatches_neitherDeadlocksNorLoses() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let echo = ClosureSubscriber<Int?> { value in
      if let value, value.isMultiple(of: 10), value < 2000 { store.dispatch(SetLabel("\(value)")) }
    }
    store.subscribe(echo) { $0.select(\.value) }

    // when
    let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 2) { _ in
      for _ in 0..<500 { store.dispatch(Increment()) }
    }

    // then
    XCTAssertTrue(finished, "the threads did not finish in time")
    XCTAssertEqual(store.state.value, 1000)
    XCTAssertEqual(store.state.label, "1000")
  }
}
