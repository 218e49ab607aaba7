import XCTest

@testable import ReactorKitReSwift

/// Subscribing, unsubscribing and dispatching from inside the store's own processing: the first
/// delivery of `subscribe`, and a middleware.
final class StoreReentrancyTests: XCTestCase {
  func test_dispatchFromTheFirstDelivery_isReducedBeforeSubscribeReturns() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let recorder = Recorder<CounterState>()
    var hasDispatched = false
    let subscriber = ClosureSubscriber<CounterState> { state in
      recorder.newState(state: state)
      if !hasDispatched {
        hasDispatched = true
        store.dispatch(SetValue(5))
      }
    }

    // when
    store.subscribe(subscriber)

    // then
    XCTAssertEqual(store.state.value, 5)
    XCTAssertEqual(recorder.received.map(\.value), [nil, 5])
  }

  func test_subscribeFromTheFirstDelivery_joinsTheOtherSubscriber() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let second = Recorder<CounterState>()
    let first = ClosureSubscriber<CounterState> { _ in
      if store.subscriptionCount == 1 { store.subscribe(second) }
    }

    // when
    store.subscribe(first)
    store.dispatch(SetValue(1))

    // then
    XCTAssertEqual(second.received.map(\.value), [nil, 1])
    XCTAssertEqual(store.subscriptionCount, 2)
  }

  func test_unsubscribeFromTheFirstDelivery_endsTheSubscription() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    var count = 0
    var subscriber: ClosureSubscriber<CounterState>?
    subscriber = ClosureSubscriber<CounterState> { _ in
      count += 1
      if let subscriber { store.unsubscribe(subscriber) }
    }

    // when
    store.subscribe(subscriber!)
    store.dispatch(SetValue(1))

    // then
    XCTAssertEqual(count, 1)
    XCTAssertEqual(store.subscriptionCount, 0)
  }

  func test_subscribeFromAMiddleware_deliversTheStateBeforeTheActionThenTheLaterOnes() {
    // given
    let recorder = Recorder<CounterState>()
    let holder = StoreHolder()
    let subscribing: Middleware<CounterState> = { _, _ in
      { next in
        { action in
          if action is Increment { holder.store?.subscribe(recorder) }
          next(action)
        }
      }
    }
    let store = Store(reducer: counterReducer, state: CounterState(), middleware: [subscribing])
    holder.store = store

    // when
    store.dispatch(Increment())
    store.dispatch(SetValue(7))

    // then
    XCTAssertEqual(recorder.received.map(\.value), [nil, 1, 7])
  }
}

private final class StoreHolder {
  weak var store: Store<CounterState>?
}
