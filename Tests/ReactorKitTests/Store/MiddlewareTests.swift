import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class MiddlewareTests: ResourceTestCase {
  func test_middleware_passThroughLetsEveryActionReachTheReducer() {
    // given
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [Middleware()])
    let reduced = recordActions(of: store)
    // when
    store.dispatch(StoreCounterAction.add(2))
    store.dispatch(StoreLogAction(text: "a"))
    // then
    XCTAssertEqual(reduced.current, ["add(2)", "log(a)"])
    XCTAssertEqual(store.currentState, StoreCounterState(count: 2, log: ["a"]))
  }

  func test_middleware_droppedActionNeverReachesTheReducer() {
    // given
    let dropLogs = Middleware<StoreCounterState> { _, _, action in
      action is StoreLogAction ? [] : [action]
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [dropLogs])
    let reduced = recordActions(of: store)
    let states = recordStates(of: store)
    // when
    store.dispatch(StoreLogAction(text: "dropped"))
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(reduced.current, ["increment"])
    XCTAssertEqual(states.current.map(\.count), [0, 1], "A dropped action publishes no state.")
    XCTAssertEqual(store.currentState.log, [])
  }

  func test_middleware_multipliedActionProducesOneReductionAndStateEach() {
    // given
    let triple = Middleware<StoreCounterState> { _, _, action in [action, action, action] }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [triple])
    let reduced = recordActions(of: store)
    let states = recordStates(of: store)
    // when
    store.dispatch(StoreCounterAction.add(2))
    // then
    XCTAssertEqual(reduced.current, ["add(2)", "add(2)", "add(2)"])
    XCTAssertEqual(states.current.map(\.count), [0, 2, 4, 6])
  }

  func test_middleware_transformReceivesGetStateAndDispatch() {
    // given
    let seen = StoreLockedBox<[Int]>([])
    let middleware = Middleware<StoreCounterState> { getState, dispatch, action in
      seen.withLock { $0.append(getState().count) }
      if case StoreCounterAction.add(let amount) = action, amount > 1 {
        dispatch(StoreCounterAction.add(amount - 1))
      }
      return [action]
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    // when
    store.dispatch(StoreCounterAction.add(3))
    // then: add(3), then the queued add(2), then add(1)
    XCTAssertEqual(seen.current, [0, 3, 5])
    XCTAssertEqual(store.currentState.count, 6)
  }

  func test_middleware_sideEffectRunsOnEachActionTheMiddlewareLetsThrough() {
    // given
    let effects = StoreLockedBox<[String]>([])
    let middleware = Middleware<StoreCounterState> { _, _, action in
      [action, StoreLogAction(text: "extra")]
    }
    .sideEffect { getState, _, action in
      effects.withLock { $0.append("\(describeStoreAction(action))@\(getState().count)") }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    // when
    store.dispatch(StoreCounterAction.increment)
    // then: each output, seen before it is reduced
    XCTAssertEqual(effects.current, ["increment@0", "log(extra)@1"])
    XCTAssertEqual(store.currentState, StoreCounterState(count: 1, log: ["extra"]))
  }

  func test_middleware_sideEffectCannotChangeTheAction() {
    // given
    let middleware = Middleware<StoreCounterState>().sideEffect { _, _, _ in }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    // when
    store.dispatch(StoreCounterAction.add(5))
    // then
    XCTAssertEqual(store.currentState.count, 5)
  }

  func test_middleware_mapReplacesActions() {
    // given
    let middleware = Middleware<StoreCounterState>().map { _, action in
      guard case StoreCounterAction.add(let amount) = action else { return action }
      return StoreCounterAction.add(amount * 10)
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    // when
    store.dispatch(StoreCounterAction.add(2))
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(store.currentState.count, 21)
  }

  func test_middleware_filterDropsExcludedActions() {
    // given
    let middleware = Middleware<StoreCounterState>().filter { getState, action in
      !(action is StoreLogAction) || getState().count > 0
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    let reduced = recordActions(of: store)
    // when
    store.dispatch(StoreLogAction(text: "too early"))
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreLogAction(text: "ok"))
    // then
    XCTAssertEqual(reduced.current, ["increment", "log(ok)"])
  }

  func test_middleware_flatMapExpandsAndDrops() {
    // given
    let middleware = Middleware<StoreCounterState>().flatMap { _, action in
      guard case StoreCounterAction.add(let amount) = action else { return [] }
      return Array(repeating: StoreCounterAction.increment, count: amount)
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    let states = recordStates(of: store)
    // when
    store.dispatch(StoreCounterAction.add(3))
    store.dispatch(StoreLogAction(text: "dropped"))
    // then
    XCTAssertEqual(states.current.map(\.count), [0, 1, 2, 3])
    XCTAssertEqual(store.currentState.log, [])
  }

  func test_middleware_compactMapReplacesOrDrops() {
    // given
    let middleware = Middleware<StoreCounterState>().compactMap { _, action in
      guard let log = action as? StoreLogAction else { return action }
      return log.text.isEmpty ? nil : StoreLogAction(text: log.text.uppercased())
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    // when
    store.dispatch(StoreLogAction(text: ""))
    store.dispatch(StoreLogAction(text: "a"))
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(store.currentState, StoreCounterState(count: 1, log: ["A"]))
  }

  func test_middleware_combinatorsApplyToTheOutputOfTheirReceiver() {
    // given: the receiver turns one action into two; filter sees both outputs
    let seen = StoreLockedBox<[String]>([])
    let middleware = Middleware<StoreCounterState> { _, _, action in
      [action, StoreCounterAction.add(100)]
    }
    .filter { _, action in
      seen.withLock { $0.append(describeStoreAction(action)) }
      if case StoreCounterAction.add(100) = action { return false }
      return true
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [middleware])
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(seen.current, ["increment", "add(100)"])
    XCTAssertEqual(store.currentState.count, 1)
  }

  func test_middleware_concatRunsReceiverThenOther() {
    // given
    let times10 = Middleware<StoreCounterState>().map { _, action in
      guard case StoreCounterAction.add(let amount) = action else { return action }
      return StoreCounterAction.add(amount * 10)
    }
    let plus1 = Middleware<StoreCounterState>().map { _, action in
      guard case StoreCounterAction.add(let amount) = action else { return action }
      return StoreCounterAction.add(amount + 1)
    }
    let concatenated = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [times10.concat(plus1)])
    let reversed = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [plus1.concat(times10)])
    // when
    concatenated.dispatch(StoreCounterAction.add(2))
    reversed.dispatch(StoreCounterAction.add(2))
    // then
    XCTAssertEqual(concatenated.currentState.count, 21)
    XCTAssertEqual(reversed.currentState.count, 30)
  }

  func test_middleware_arrayRunsInOrderEachOnWhatThePreviousLetThrough() {
    // given
    let order = StoreLockedBox<[String]>([])
    let first = Middleware<StoreCounterState> { _, _, action in
      order.withLock { $0.append("first:\(describeStoreAction(action))") }
      return [action, StoreLogAction(text: "from-first")]
    }
    let second = Middleware<StoreCounterState> { _, _, action in
      order.withLock { $0.append("second:\(describeStoreAction(action))") }
      return action is StoreLogAction ? [] : [action]
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [first, second])
    let reduced = recordActions(of: store)
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(
      order.current, ["first:increment", "second:increment", "second:log(from-first)"])
    XCTAssertEqual(reduced.current, ["increment"])
  }

  func test_middleware_reduxNextReducesBeforeReturning() {
    // given
    let observed = StoreLockedBox<[String]>([])
    let redux = Middleware<StoreCounterState>.redux { getState, _ in
      { next in
        { action in
          let before = getState().count
          next(action)
          observed.withLock { $0.append("\(before)->\(getState().count)") }
        }
      }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    // when
    store.dispatch(StoreCounterAction.add(2))
    store.dispatch(StoreCounterAction.add(3))
    // then
    XCTAssertEqual(observed.current, ["0->2", "2->5"])
  }

  func test_middleware_reduxSetupRunsOncePerStore() {
    // given
    let setups = StoreLockedBox(0)
    let redux = Middleware<StoreCounterState>.redux { _, _ in
      setups.withLock { $0 += 1 }
      return { next in next }
    }
    // when
    let first = Store(reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    let second = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    for _ in 0..<3 {
      first.dispatch(StoreCounterAction.increment)
      second.dispatch(StoreCounterAction.increment)
    }
    // then
    XCTAssertEqual(setups.current, 2)
    XCTAssertEqual(first.currentState.count, 3)
  }

  func test_middleware_reduxAndTransformFormsComposeInEitherOrder() {
    // given: redux doubles an add by calling next twice; transform maps add(n) to add(n + 1)
    let reduxDouble = Middleware<StoreCounterState>.redux { _, _ in
      { next in
        { action in
          next(action)
          if case StoreCounterAction.add = action { next(action) }
        }
      }
    }
    let plusOne = Middleware<StoreCounterState>().map { _, action in
      guard case StoreCounterAction.add(let amount) = action else { return action }
      return StoreCounterAction.add(amount + 1)
    }
    let reduxFirst = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [reduxDouble, plusOne])
    let transformFirst = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [plusOne, reduxDouble])
    let concatenated = Store(
      reducer: storeCounterReducer, state: StoreCounterState(),
      middleware: [plusOne.concat(reduxDouble).filter { _, _ in true }])
    let reduced = recordActions(of: reduxFirst)
    // when
    reduxFirst.dispatch(StoreCounterAction.add(1))
    transformFirst.dispatch(StoreCounterAction.add(1))
    concatenated.dispatch(StoreCounterAction.add(1))
    // then
    XCTAssertEqual(reduced.current, ["add(2)", "add(2)"])
    XCTAssertEqual(reduxFirst.currentState.count, 4)
    XCTAssertEqual(transformFirst.currentState.count, 4)
    XCTAssertEqual(concatenated.currentState.count, 4)
  }

  func test_middleware_reduxCanDropByNotCallingNext() {
    // given
    let redux = Middleware<StoreCounterState>.redux { _, _ in
      { next in
        { action in
          if !(action is StoreLogAction) { next(action) }
        }
      }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    // when
    store.dispatch(StoreLogAction(text: "dropped"))
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(store.currentState, StoreCounterState(count: 1, log: []))
  }

  func test_middleware_reduxDispatchIsQueuedAfterTheCurrentAction() {
    // given
    let redux = Middleware<StoreCounterState>.redux { _, dispatch in
      { next in
        { action in
          if case StoreCounterAction.add = action { dispatch(StoreLogAction(text: "after add")) }
          next(action)
        }
      }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    let reduced = recordActions(of: store)
    // when
    store.dispatch(StoreCounterAction.add(1))
    // then: the dispatched action runs after add(1), even though it was dispatched before next
    XCTAssertEqual(reduced.current, ["add(1)", "log(after add)"])
  }

  func test_middleware_reduxNextCalledLaterFromAnotherThreadReducesWithoutRerunningTheChain() {
    // given
    let calls = StoreLockedBox(0)
    let saved = StoreLockedBox<Middleware<StoreCounterState>.Dispatch?>(nil)
    let redux = Middleware<StoreCounterState>.redux { _, _ in
      { next in
        { action in
          calls.withLock { $0 += 1 }
          saved.withLock { $0 = next }
        }
      }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    store.dispatch(StoreCounterAction.add(7))
    XCTAssertEqual(store.currentState.count, 0, "The middleware held the action back.")
    let next = UncheckedBox(saved.current!)
    // when
    let done = expectation(description: "delayed next")
    DispatchQueue.global().async {
      next.value(StoreCounterAction.add(7))
      done.fulfill()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(store.currentState.count, 7)
    XCTAssertEqual(calls.current, 1)
  }

  func test_middleware_acceptsFunctionsOfTheDocumentedSignature() {
    // given: a function whose `GetState` parameter is not escaping, as in the design document
    @Sendable func passThrough(
      _ getState: Middleware<StoreCounterState>.GetState,
      _ dispatch: @escaping Middleware<StoreCounterState>.Dispatch, _ action: any Action
    ) -> [any Action] {
      [action]
    }
    @Sendable func reduxPassThrough(
      _ getState: Middleware<StoreCounterState>.GetState,
      _ dispatch: @escaping Middleware<StoreCounterState>.Dispatch
    ) -> (@escaping Middleware<StoreCounterState>.Dispatch) ->
      Middleware<StoreCounterState>
      .Dispatch
    {
      { next in next }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(),
      middleware: [Middleware(passThrough), .redux(reduxPassThrough)])
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(store.currentState.count, 1)
  }

  func test_middleware_keptNextAndGetStateAfterTheStoreIsFreed_doNothingAndReturnTheLastState() {
    // given
    let saved = StoreLockedBox<
      (Middleware<StoreCounterState>.GetState, Middleware<StoreCounterState>.Dispatch)?
    >(nil)
    weak var weakStore: Store<StoreCounterState>?
    do {
      let store = Store(
        reducer: storeCounterReducer, state: StoreCounterState(),
        middleware: [
          .redux { getState, _ in
            { next in
              saved.withLock { $0 = (getState, next) }
              return { action in next(action) }
            }
          }
        ])
      weakStore = store
      store.dispatch(StoreCounterAction.add(4))
    }
    XCTAssertNil(weakStore)
    let (getState, next) = saved.current!
    // when
    next(StoreCounterAction.add(1))
    // then
    XCTAssertEqual(getState().count, 4)
  }

  func test_middleware_getStateFromAnotherThreadWhileTheChainRuns_readsAPublishedState() {
    // given: the middleware waits, between two reductions, for another thread's getState
    let saved = StoreLockedBox<Middleware<StoreCounterState>.GetState?>(nil)
    let seen = StoreLockedBox<[Int]>([])
    let redux = Middleware<StoreCounterState>.redux { getState, _ in
      saved.withLock { $0 = getState }
      return { next in
        { action in
          next(action)
          let other = UncheckedBox(getState)
          let read = DispatchSemaphore(value: 0)
          DispatchQueue.global().async {
            seen.withLock { $0.append(other.value().count) }
            read.signal()
          }
          read.wait()
          seen.withLock { $0.append(getState().count) }
          next(action)
        }
      }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    // when
    store.dispatch(StoreCounterAction.add(3))
    // then
    XCTAssertEqual(seen.current, [3, 3])
    XCTAssertEqual(store.currentState.count, 6)
    XCTAssertEqual(saved.current?().count, 6)
  }

  func test_middleware_nextCalledByASubscriberDuringDelivery_isReducedAfterTheCurrentAction() {
    // given: a subscriber that, on the first new state, calls the `next` a middleware kept
    let saved = StoreLockedBox<Middleware<StoreCounterState>.Dispatch?>(nil)
    let redux = Middleware<StoreCounterState>.redux { _, _ in
      { next in
        saved.withLock { $0 = next }
        return { action in next(action) }
      }
    }
    let store = Store(
      reducer: storeCounterReducer, state: StoreCounterState(), middleware: [redux])
    let seen = StoreLockedBox<[Int]>([])
    let subscription = store.state.subscribe(onNext: { state in
      seen.withLock { $0.append(state.count) }
      if state.count == 1 { saved.current?(StoreCounterAction.add(10)) }
      seen.withLock { $0.append(-state.count) }
    })
    // when
    store.dispatch(StoreCounterAction.increment)
    // then: the second reduction starts after every subscriber saw the first
    XCTAssertEqual(seen.current, [0, -0, 1, -1, 11, -11])
    XCTAssertEqual(store.currentState.count, 11)
    subscription.dispose()
  }

  func test_middleware_releasedWithTheStore() {
    // given
    weak var weakStore: Store<StoreCounterState>?
    weak var weakTracker: Tracker?
    do {
      let tracker = Tracker()
      weakTracker = tracker
      let store = Store(
        reducer: storeCounterReducer, state: StoreCounterState(),
        middleware: [
          Middleware().sideEffect { _, _, _ in _ = tracker },
          .redux { getState, dispatch in
            { next in
              { action in
                _ = (getState, dispatch)
                next(action)
              }
            }
          },
        ])
      weakStore = store
      // when
      store.dispatch(StoreCounterAction.increment)
    }
    // then
    XCTAssertNil(weakStore)
    XCTAssertNil(weakTracker)
  }
}

private final class Tracker: Sendable {}

/// Hands a non-`Sendable` value to another thread in a test.
struct UncheckedBox<Value>: @unchecked Sendable {
  // Safety: tests use it to pass a value to exactly one other thread.
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// Records the description of each action that reaches `store`'s reducer.
func recordActions<State>(of store: Store<State>) -> StoreLockedBox<[String]> {
  let box = StoreLockedBox<[String]>([])
  let subscription = store.actions.subscribe(onNext: { [weak box] action in
    box?.withLock { $0.append(describeStoreAction(action)) }
  })
  box.keep(subscription)
  return box
}

/// Records every state `store` publishes, starting with the current one.
func recordStates<State>(of store: Store<State>) -> StoreLockedBox<[State]> {
  let box = StoreLockedBox<[State]>([])
  let subscription = store.state.subscribe(onNext: { [weak box] state in
    box?.withLock { $0.append(state) }
  })
  box.keep(subscription)
  return box
}
