import Foundation
import ReactorKitReSwift
import XCTest

/// Dispatching from a reducer, action creators and async action creators (ReSwift's
/// StoreDispatchTests). Where ReSwift traps on a dispatch from a reducer, this store queues it.
final class StoreDispatchTests: XCTestCase {
  func test_dispatchFromTheReducer_isQueuedAndReducedNext() {
    // given
    let store = Locked<Store<CounterState>?>(nil)
    let reducer: Reducer<CounterState> = { action, state in
      if let action = action as? SetValue, action.value == 10 {
        store.value?.dispatch(SetValue(20))
      }
      return counterReducer(action: action, state: state)
    }
    store.value = Store(reducer: reducer, state: CounterState())
    let subscriber = Recorder<Int?>()
    store.value?.subscribe(subscriber) { $0.select(\.value) }

    // when
    store.value?.dispatch(SetValue(10))

    // then: no trap; the nested action runs after the first one, in order
    XCTAssertEqual(subscriber.received, [nil, 10, 20])
  }

  func test_actionCreator_dispatchesWhatItCreatesFromTheState() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    store.dispatch(SetValue(5))
    let double: Store<CounterState>.ActionCreator = { state, _ in
      SetValue(state.value! * 2)
    }
    let none: Store<CounterState>.ActionCreator = { _, _ in nil }

    // when
    dispatchCreator(double, to: store)
    dispatchCreator(none, to: store)

    // then
    XCTAssertEqual(store.state.value, 10)
  }

  func test_asyncActionCreator_dispatchesFromAnotherThread() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let reduced = expectation(description: "the created action was reduced")
    let subscriber = ClosureSubscriber<Int?> { value in
      if value == 5 { reduced.fulfill() }
    }
    store.subscribe(subscriber) { $0.select(\.value) }

    // when
    dispatchAsyncCreator(fiveLater(), to: store, callback: nil)

    // then
    wait(for: [reduced], timeout: 5)
    XCTAssertEqual(store.state.value, 5)
  }

  func test_asyncActionCreator_callsTheCallbackWithTheNewStateOnce() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let called = expectation(description: "the callback was called")
    let calls = Locked(0)

    // when
    dispatchAsyncCreator(fiveLater(), to: store) { state in
      XCTAssertEqual(state.value, 5)
      calls.value += 1
      called.fulfill()
    }

    // then
    wait(for: [called], timeout: 5)
    XCTAssertEqual(calls.value, 1)
  }

  func test_dispatchingStoreType_acceptsTheStore() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let dispatcher: any DispatchingStoreType = store

    // when
    dispatcher.dispatch(SetValue(3))

    // then
    XCTAssertEqual(store.state.value, 3)
  }
}

// MARK: - Helpers

/// Creates `SetValue(5)` on a background thread.
private func fiveLater() -> Store<CounterState>.AsyncActionCreator {
  { _, _, callback in
    let callback = UncheckedBox(callback)
    DispatchQueue.global().async {
      callback.value { _, _ in SetValue(5) }
    }
  }
}

/// Calls the deprecated action-creator dispatch through `StoreType`, where it is not deprecated,
/// so the test builds without warnings.
private func dispatchCreator<S: StoreType>(_ creator: S.ActionCreator, to store: S) {
  store.dispatch(creator)
}

private func dispatchAsyncCreator<S: StoreType>(
  _ creator: S.AsyncActionCreator, to store: S, callback: S.DispatchCallback?
) {
  if let callback {
    store.dispatch(creator, callback: callback)
  } else {
    store.dispatch(creator)
  }
}

/// A value handed to another thread in a test.
final class UncheckedBox<Value>: @unchecked Sendable {
  // Safety: used by one thread at a time in these tests.
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// A value shared between threads in a test, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  // Safety: `stored` is only touched with `lock` held.
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&stored) } }
}
