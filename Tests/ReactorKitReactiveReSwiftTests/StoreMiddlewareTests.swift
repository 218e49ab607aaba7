import Foundation
import ReactorKitReactiveReSwift
import XCTest

/// Middleware and its combinators in a store (ReactiveReSwift's StoreMiddlewareTests).
final class StoreMiddlewareTests: XCTestCase {
  func test_middleware_concatenatedMapsDecorateTheAction() {
    // given
    let store = Store(
      reducer: textReducer(), observable: ObservableProperty(TextState()),
      middleware: Middleware(appending(" first"), appending(" second")))

    // when
    store.dispatch(SetText("OK"))

    // then
    XCTAssertEqual(store.observable.value.text, "OK first second")
  }

  func test_middleware_sideEffectDispatchRunsThroughTheWholeChain() {
    // given
    let store = Store(
      reducer: textReducer(), observable: ObservableProperty(TextState()),
      middleware: Middleware(appending(" first"), appending(" second"), valuesAsText())
        .flatMap { $1 })

    // when
    store.dispatch(SetValue(10))

    // then
    XCTAssertEqual(store.observable.value.text, "10 first second")
  }

  func test_middleware_readsTheState() {
    // given
    let store = Store(
      reducer: textReducer(), observable: ObservableProperty(TextState(text: "OK")),
      middleware: refusingWhenOK())

    // when
    store.dispatch(SetText("won't go through"))

    // then
    XCTAssertEqual(store.observable.value.text, "Not OK")
  }

  func test_filter_false_skipsEveryLaterStageAndTheReducer() {
    // given
    var laterStages = 0
    let dropping = Middleware<TextState>().filter { _, _ in false }
    let first = dropping.sideEffect { _, _, _ in laterStages += 1 }
    let second = dropping.flatMap { _, _ -> Action? in
      laterStages += 1
      return nil
    }
    let property = ObservableProperty(TextState(text: "OK"))

    // when
    for middleware in [Middleware(first, second), first, second] {
      Store(reducer: textReducer(), observable: property, middleware: middleware)
        .dispatch(SetText("won't go through"))
    }

    // then
    XCTAssertEqual(laterStages, 0)
    XCTAssertEqual(property.value.text, "OK")
  }

  func test_flatMapToSeveral_reducesEachAndIncreaseIsTheSame() {
    // given
    let tripling = Middleware<CounterState>().flatMap { [$1, $1, $1] }
    let doubling = Middleware<CounterState>().increase { [$1, $1] }
    let store = Store(
      reducer: increaseBy(1), observable: ObservableProperty(CounterState()),
      middleware: tripling.concat(doubling))
    var states: [Int] = []
    store.observable.subscribe { states.append($0.count) }

    // when
    store.dispatch(Noop())

    // then: one state per reduction
    XCTAssertEqual(store.observable.value.count, 6)
    XCTAssertEqual(states, [0, 1, 2, 3, 4, 5, 6])
  }

  func test_map_replacesTheAction_andCompactingFlatMapDropsNil() {
    // given
    let middleware = Middleware<ValueState>()
      .map { _, action in (action as? SetValue).map { SetValue($0.value * 2) } ?? action }
      .flatMap { _, action -> Action? in (action as? SetValue)?.value == 4 ? nil : action }
    let store = Store(
      reducer: valueReducer(), observable: ObservableProperty(ValueState()),
      middleware: middleware)

    // when
    store.dispatch(SetValue(1))
    store.dispatch(SetValue(2))

    // then: 1 became 2; 2 became 4 and was dropped
    XCTAssertEqual(store.observable.value.value, 2)
  }

  func test_sideEffect_seesOnlyWhatThePreviousStageLetThrough() {
    // given
    var seen: [Int] = []
    let middleware = Middleware<ValueState>()
      .filter { _, action in ((action as? SetValue)?.value ?? 0) > 1 }
      .sideEffect { getState, _, action in
        seen.append((action as? SetValue)?.value ?? -1)
        seen.append(getState().value ?? 0)
      }
    let store = Store(
      reducer: valueReducer(), observable: ObservableProperty(ValueState()),
      middleware: middleware)

    // when
    store.dispatch(SetValue(1), SetValue(2), SetValue(3))

    // then: (action, state before it) pairs for 2 and 3 only
    XCTAssertEqual(seen, [2, 0, 3, 2])
  }

  func test_sideEffectWaitingForAnotherThreadThatDispatches_doesNotDeadlock() {
    // given
    let middleware = Middleware<CounterState>().sideEffect { _, dispatch, action in
      if action is SetText {
        let dispatch = UncheckedBox(dispatch)
        DispatchQueue.global().sync { dispatch.value(Noop()) }
      }
    }
    let store = Store(
      reducer: increaseBy(1), observable: ObservableProperty(CounterState()),
      middleware: middleware)
    let reduced = expectation(description: "both actions were reduced")
    store.observable.subscribe { if $0.count == 2 { reduced.fulfill() } }

    // when
    store.dispatch(SetText(""))

    // then
    wait(for: [reduced], timeout: 10)
  }

  func test_sideEffectsOtherThread_dispatchesThroughItThenTheStore_keepsThatThreadsOrder() {
    for round in 0..<50 {
      // given: a side effect that waits while another thread dispatches through its dispatch
      // function, then (after releasing it) through the store
      let reduced = Locked<[Int]>([])
      let released = UncheckedBox(DispatchSemaphore(value: 0))
      let storeBox = Locked<Store<ObservableProperty<ValueState>>?>(nil)
      let middleware = Middleware<ValueState>().sideEffect { _, dispatch, action in
        guard (action as? SetValue)?.value == 0 else { return }
        let dispatch = UncheckedBox(dispatch)
        Thread {
          dispatch.value(SetValue(1))
          released.value.signal()
          storeBox.value?.dispatch(SetValue(2))
        }.start()
        _ = released.value.wait(timeout: .now() + 10)
      }
      let reducer: Reducer<ValueState> = { action, state in
        guard let action = action as? SetValue else { return state }
        reduced.update { $0.append(action.value) }
        return ValueState(value: action.value)
      }
      let store = Store(
        reducer: reducer, observable: ObservableProperty(ValueState()), middleware: middleware)
      storeBox.value = store

      // when
      store.dispatch(SetValue(0))
      let deadline = Date().addingTimeInterval(10)
      while reduced.value.count < 3 && Date() < deadline { usleep(1000) }
      storeBox.value = nil

      // then: 1 before 2, as the other thread dispatched them
      XCTAssertEqual(reduced.value, [0, 1, 2], "round \(round)")
      if reduced.value != [0, 1, 2] { return }
    }
  }
}

// MARK: - Fakes

private func appending(_ suffix: String) -> Middleware<TextState> {
  Middleware<TextState>().map { _, action in
    guard let action = action as? SetText else { return action }
    return SetText(action.text + suffix)
  }
}

/// Dispatches a `SetText` for every `SetValue` and drops the `SetValue`.
private func valuesAsText() -> Middleware<TextState> {
  Middleware<TextState>()
    .sideEffect { _, dispatch, action in
      if let action = action as? SetValue { dispatch(SetText("\(action.value)")) }
    }
    .filter { _, action in !(action is SetValue) }
}

/// While the text is "OK", replaces any other text with "Not OK".
private func refusingWhenOK() -> Middleware<TextState> {
  Middleware<TextState>()
    .sideEffect { getState, dispatch, action in
      if let action = action as? SetText, getState().text == "OK", action.text != "Not OK" {
        dispatch(SetText("Not OK"))
      }
    }
    .filter { _, action in (action as? SetText)?.text == "Not OK" }
}
