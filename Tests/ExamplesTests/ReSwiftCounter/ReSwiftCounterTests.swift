import ReSwiftCounterKit
import XCTest

/// The ReSwift-style counter: its reducer, middleware and subscriber screen.
final class ReSwiftCounterTests: XCTestCase {
  func test_store_withoutInitialState_startsFromTheReducersDefault() {
    // when
    let store = makeCounterStore()

    // then
    XCTAssertEqual(store.state, CounterState())
  }

  func test_dispatch_changesTheCounterAndLogsAfterTheReduction() {
    // given
    var log: [String] = []
    let store = makeCounterStore(log: { log.append($0) })

    // when
    store.dispatch(CounterActionIncrease())
    store.dispatch(CounterActionIncrease())
    store.dispatch(CounterActionDecrease())

    // then
    XCTAssertEqual(store.state.counter, 1)
    XCTAssertEqual(store.state.changes, 3)
    XCTAssertEqual(
      log,
      [
        "CounterActionIncrease -> 1", "CounterActionIncrease -> 2", "CounterActionDecrease -> 1",
      ])
  }

  func test_limitMiddleware_dropsChangesPastTheLimitBothWays() {
    // given
    let store = makeCounterStore()

    // when
    for _ in 0..<8 { store.dispatch(CounterActionIncrease()) }
    let high = store.state.counter
    store.dispatch(CounterActionReset())
    for _ in 0..<8 { store.dispatch(CounterActionDecrease()) }

    // then
    XCTAssertEqual(high, CounterState.limit)
    XCTAssertEqual(store.state.counter, -CounterState.limit)
    XCTAssertEqual(store.state.changes, 2 * CounterState.limit + 1)
  }

  func test_screen_rendersOnAppearAndOnlyWhenTheCounterChanges() {
    // given
    let store = makeCounterStore()
    let screen = CounterScreen()

    // when
    screen.appear(in: store)
    let initial = screen.text
    store.dispatch(CounterActionReset())  // counter stays 0: not rendered again
    store.dispatch(CounterActionDecrease())

    // then
    XCTAssertEqual(initial, "ReSwift counter  (-5…5)\nvalue: 0  [     ]")
    XCTAssertEqual(screen.text, "ReSwift counter  (-5…5)\nvalue: -1  [    #]")
    XCTAssertEqual(screen.renderCount, 2)
  }

  func test_screen_afterDisappear_isNotRendered() {
    // given
    let store = makeCounterStore()
    let screen = CounterScreen()
    screen.appear(in: store)

    // when
    screen.disappear(from: store)
    store.dispatch(CounterActionIncrease())

    // then
    XCTAssertEqual(screen.renderCount, 1)
  }

  func test_nativeStore_seesTheSameStateAndActions() {
    // given
    let store = makeCounterStore()
    var counters: [Int] = []
    let subscription = store.reactorKitStore.slice(\.counter)
      .subscribe(onNext: { counters.append($0) })

    // when
    store.dispatch(CounterActionIncrease())
    store.reactorKitStore.dispatch(CounterActionIncrease())

    // then
    subscription.dispose()
    XCTAssertEqual(counters, [0, 1, 2])
  }
}
