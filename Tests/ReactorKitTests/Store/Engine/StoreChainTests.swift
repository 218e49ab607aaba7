import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Engine: StoreChain.swift and StoreChainEnd.swift (the middleware chain's assembly, and
/// where its last `next` reduces). Driven through `Store`, the chain's only user.
final class StoreChainTests: ResourceTestCase {
  private enum Step: Action, Equatable {
    case add(Int)
    case echo(Int)
  }

  private static let reducer = Reducer<[Int]> { state, action in
    guard let step = action as? Step else { return }
    switch step {
    case .add(let value), .echo(let value): state.append(value)
    }
  }

  /// A stage that logs its name on the way in and out of `next`.
  private static func stage(_ name: String, log: LockedValues<String>) -> Middleware<[Int]> {
    .redux { _, _ in
      { next in
        { action in
          log.append("\(name)>")
          next(action)
          log.append("<\(name)")
        }
      }
    }
  }

  func test_chain_stagesRunOutermostFirstAndUnwindInReverse() {
    // given
    let log = LockedValues<String>()
    let store = Store(
      reducer: Self.reducer, state: [],
      middleware: [Self.stage("a", log: log), Self.stage("b", log: log), Self.stage("c", log: log)])
    // when
    store.dispatch(Step.add(1))
    // then
    XCTAssertEqual(log.all, ["a>", "b>", "c>", "<c", "<b", "<a"])
    XCTAssertEqual(store.currentState, [1])
  }

  func test_chain_lastNextOnTheChainsThreadReducesBeforeItReturns() {
    // given
    let seen = LockedValues<[Int]>()
    let probe = Middleware<[Int]>.redux { getState, _ in
      { next in
        { action in
          seen.append(getState())
          next(action)
          seen.append(getState())
        }
      }
    }
    let store = Store(reducer: Self.reducer, state: [], middleware: [probe])
    // when
    store.dispatch(Step.add(7))
    // then
    XCTAssertEqual(seen.all, [[], [7]])
  }

  func test_chain_dispatchFromAStageStartsAtTheTopAfterTheCurrentAction() {
    // given
    let log = LockedValues<String>()
    let echo = Middleware<[Int]>.redux { _, dispatch in
      { next in
        { action in
          log.append("\(action)")
          next(action)
          if case Step.add(let value) = action { dispatch(Step.echo(value * 10)) }
          log.append("after \(action)")
        }
      }
    }
    let store = Store(reducer: Self.reducer, state: [], middleware: [echo])
    // when
    store.dispatch(Step.add(2))
    // then: the echo waits for the current action to leave the chain, then runs it all
    XCTAssertEqual(log.all, ["add(2)", "after add(2)", "echo(20)", "after echo(20)"])
    XCTAssertEqual(store.currentState, [2, 20])
  }

  func test_chain_aStageThatDoesNotCallNextDropsTheAction() {
    // given
    let dropOdd = Middleware<[Int]>.redux { _, _ in
      { next in
        { action in
          if case Step.add(let value) = action, value % 2 == 1 { return }
          next(action)
        }
      }
    }
    let store = Store(reducer: Self.reducer, state: [], middleware: [dropOdd])
    // when
    for value in 1...4 { store.dispatch(Step.add(value)) }
    // then
    XCTAssertEqual(store.currentState, [2, 4])
  }

  func test_chain_nextKeptAndCalledLaterFromAnotherThreadReducesOnceWithoutRerunningTheChain() {
    // given
    let runs = LockedValues<String>()
    let kept = LockedValues<Middleware<[Int]>.Dispatch>()
    let deferring = Middleware<[Int]>.redux { _, _ in
      { next in
        { action in
          runs.append("\(action)")
          kept.append(next)
        }
      }
    }
    let store = Store(reducer: Self.reducer, state: [], middleware: [deferring])
    store.dispatch(Step.add(5))
    XCTAssertEqual(store.currentState, [])
    let next = UncheckedSendable(kept.all[0])
    // when
    let done = DispatchSemaphore(value: 0)
    Thread {
      next.value(Step.add(5))
      done.signal()
    }.start()
    // then
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    XCTAssertTrue(waitUntil(timeout: 10) { store.currentState == [5] })
    XCTAssertEqual(runs.all, ["add(5)"])
  }

  func test_chain_withoutMiddlewareReducesDirectly() {
    let store = Store(reducer: Self.reducer, state: [])
    store.dispatch(Step.add(1))
    store.dispatch(Step.echo(2))
    XCTAssertEqual(store.currentState, [1, 2])
  }
}
