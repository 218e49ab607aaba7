import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// `Reducer` and `Middleware` are `Sendable`: constants shared by stores on several threads.
final class SendableReducerTests: ResourceTestCase {
  func test_staticLetReducerAndMiddleware_serveStoresOnSeveralThreads() {
    // given
    let stores = (0..<4).map { _ in
      Store(
        reducer: SharedCounter.reducer, state: SharedCounter(),
        middleware: [SharedCounter.doubling])
    }
    let perThread = StressConfiguration.iterations(500)
    // when
    runConcurrently(threads: 4) { index in
      for step in 0..<perThread {
        stores[index].dispatch(SharedCounterAction.add(1))
        stores[(index + 1) % 4].dispatch(SharedCounterAction.add(1))
        if step % 64 == 0 { sched_yield() }
      }
    }
    // then: each store got 2 × perThread actions, each doubled by the middleware
    for store in stores {
      XCTAssertEqual(store.currentState.total, 4 * perThread)
      XCTAssertEqual(store.currentState.reductions, 4 * perThread)
    }
  }

  func test_sendableValues_crossIsolationDomains() async {
    // given
    let reducer = SharedCounter.reducer.lift(\Wrapper.counter)
    // when: a Sendable reducer may be handed to a task
    let total = await Task.detached {
      var wrapper = Wrapper()
      reducer.reduce(&wrapper, SharedCounterAction.add(3))
      return wrapper.counter.total
    }.value
    // then
    XCTAssertEqual(total, 3)
  }
}

// MARK: - Fakes

private struct Wrapper { var counter = SharedCounter() }

private enum SharedCounterAction: Action { case add(Int) }

private struct SharedCounter {
  var total = 0
  var reductions = 0

  static let reducer = Reducer<SharedCounter>.on(SharedCounterAction.self) { state, action in
    switch action {
    case .add(let amount):
      state.total += amount
      state.reductions += 1
    }
  }

  /// Turns each `add(n)` into two `add(n)`s.
  static let doubling = Middleware<SharedCounter>().flatMap { _, action in [action, action] }
}
