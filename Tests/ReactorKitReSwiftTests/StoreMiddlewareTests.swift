import ReactorKitReSwift
import XCTest

/// Middleware that decorate, dispatch, read the state, drop actions, and are replaced after
/// the store was created (ReSwift's StoreMiddlewareTests).
final class StoreMiddlewareTests: XCTestCase {
  func test_middleware_decorateDispatchInArrayOrder() {
    // given
    let store = Store(
      reducer: counterReducer, state: CounterState(),
      middleware: [appending(" first"), appending(" second")])

    // when
    store.dispatch(SetLabel("OK"))

    // then
    XCTAssertEqual(store.state.label, "OK first second")
  }

  func test_middleware_dispatchRunsTheNewActionThroughTheWholeChain() {
    // given
    let store = Store(
      reducer: counterReducer, state: CounterState(),
      middleware: [appending(" first"), appending(" second"), labellingValues()])

    // when
    store.dispatch(SetValue(10))

    // then
    XCTAssertEqual(store.state.label, "10 first second")
    XCTAssertEqual(store.state.value, 10)
  }

  func test_middleware_readsTheStateAndReplacesTheAction() {
    // given
    let store = Store(
      reducer: counterReducer, state: CounterState(label: "OK"), middleware: [refusingWhenOK()])

    // when
    store.dispatch(SetLabel("won't go through"))

    // then
    XCTAssertEqual(store.state.label, "Not OK")
  }

  func test_middleware_notCallingNext_dropsTheAction() {
    // given
    let dropAll: Middleware<CounterState> = { _, _ in { _ in { _ in } } }
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [dropAll])
    let subscriber = Recorder<CounterState>()
    store.subscribe(subscriber)

    // when
    store.dispatch(SetValue(1))

    // then
    XCTAssertNil(store.state.value)
    XCTAssertEqual(subscriber.count, 1)
  }

  func test_next_returnsAfterTheReductionAndTheNotification() {
    // given
    var log: [String] = []
    let around: Middleware<CounterState> = { _, getState in
      { next in
        { action in
          log.append("before \(getState()?.value ?? 0)")
          next(action)
          log.append("after \(getState()?.value ?? 0)")
        }
      }
    }
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [around])
    let subscriber = ClosureSubscriber<Int?> { log.append("notified \($0 ?? 0)") }
    store.subscribe(subscriber) { $0.select(\.value) }

    // when
    store.dispatch(SetValue(4))

    // then
    XCTAssertEqual(log, ["notified 0", "before 0", "notified 4", "after 4"])
  }

  func test_middleware_setAfterInit_replacesTheChain() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [])
    store.dispatch(SetLabel("a"))

    // when
    store.middleware = [appending(" first")]
    store.dispatch(SetLabel("b"))
    let afterFirst = store.state.label
    store.middleware = []
    store.dispatch(SetLabel("c"))

    // then
    XCTAssertEqual(afterFirst, "b first")
    XCTAssertEqual(store.state.label, "c")
    XCTAssertTrue(store.middleware.isEmpty)
  }

  func test_middleware_connectsOncePerAssignment() {
    // given
    var connections = 0
    let counting: Middleware<CounterState> = { _, _ in
      connections += 1
      return { next in next }
    }

    // when
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [counting])
    store.dispatch(Noop())
    store.dispatch(Noop())
    store.middleware = [counting, counting]

    // then
    XCTAssertEqual(connections, 3)
    XCTAssertEqual(store.middleware.count, 2)
  }

  func test_dispatchFunction_replaced_isWhatDispatchCalls_andMiddlewareRestoresIt() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let original = store.dispatchFunction!
    var intercepted: [Int?] = []

    // when
    store.dispatchFunction = { action in
      intercepted.append((action as? SetValue)?.value)
      original(action)
    }
    store.dispatch(SetValue(1))
    store.middleware = []
    store.dispatch(SetValue(2))

    // then
    XCTAssertEqual(intercepted, [1])
    XCTAssertEqual(store.state.value, 2)
  }

  func test_middlewareGetState_afterTheStoreIsFreed_returnsNil() {
    // given
    var keptGetState: (() -> CounterState?)?
    let keeping: Middleware<CounterState> = { _, getState in
      keptGetState = getState
      return { next in next }
    }
    var store: Store<CounterState>? = Store(
      reducer: counterReducer, state: CounterState(value: 1), middleware: [keeping])
    XCTAssertEqual(keptGetState?()?.value, 1)

    // when
    store = nil

    // then
    XCTAssertNil(store)
    XCTAssertNil(keptGetState?())
  }
}

// MARK: - Fakes

/// Appends `suffix` to every `SetLabel` action.
private func appending(_ suffix: String) -> Middleware<CounterState> {
  { _, _ in
    { next in
      { action in
        if var action = action as? SetLabel {
          action.label += suffix
          next(action)
        } else {
          next(action)
        }
      }
    }
  }
}

/// Dispatches a `SetLabel` with the value of every `SetValue`, then passes it on.
private func labellingValues() -> Middleware<CounterState> {
  { dispatch, _ in
    { next in
      { action in
        if let action = action as? SetValue {
          dispatch(SetLabel("\(action.value ?? 0)"))
        }
        next(action)
      }
    }
  }
}

/// While the label is "OK", swallows the action and dispatches `SetLabel("Not OK")` instead.
private func refusingWhenOK() -> Middleware<CounterState> {
  { dispatch, getState in
    { next in
      { action in
        if getState()?.label == "OK", (action as? SetLabel)?.label != "Not OK" {
          dispatch(SetLabel("Not OK"))
          next(Noop())
        } else {
          next(action)
        }
      }
    }
  }
}
