import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

@testable import ReactorKitReactiveReSwift

// The file imports ReactorKit too: these names mean the facade's.
private typealias Reducer<State> = ReactorKitReactiveReSwift.Reducer<State>
private typealias Middleware<State> = ReactorKitReactiveReSwift.Middleware<State>

/// Creating, subclassing, dispatching to and freeing a store (ReactiveReSwift's StoreTests and
/// StoreDispatchTests), the native store it runs on, and thread safety.
final class StoreTests: XCTestCase {
  func test_subclass_withTheRequiredInitialiser_isFreedWhenUnreferenced() {
    // given
    let deinits = Locked(0)

    // when
    do {
      let store = CountingStore<ValueState>(
        reducer: valueReducer(), observable: ObservableProperty(ValueState()),
        onDeinit: { deinits.update { $0 += 1 } })
      store.dispatch(SetValue(1))
      XCTAssertEqual(store.observable.value.value, 1)
    }

    // then
    XCTAssertEqual(deinits.value, 1)
  }

  func test_dispatch_setsEachNewStateOnTheObservable() {
    // given
    let store = ReactorKitReactiveReSwift.Store(
      reducer: valueReducer(), observable: ObservableProperty(ValueState()))
    var received: [Int?] = []
    store.observable.subscribe { received.append($0.value) }

    // when
    store.dispatch(SetValue(1))
    store.dispatch(SetValue(2), Noop(), SetValue(3))

    // then: one state per action, unchanged ones included
    XCTAssertEqual(received, [nil, 1, 2, 2, 3])
  }

  func test_dispatchStream_dispatchesTheCurrentAndEveryLaterAction() {
    // given
    let actions = ObservableProperty(SetValue(10))
    let store = ReactorKitReactiveReSwift.Store(
      reducer: valueReducer(), observable: ObservableProperty(ValueState()))

    // when
    store.dispatch(actions)
    let first = store.observable.value.value
    actions.value = SetValue(20)

    // then
    XCTAssertEqual(first, 10)
    XCTAssertEqual(store.observable.value.value, 20)
  }

  func test_dispatchStream_afterTheStoreIsFreed_dispatchesNothingAndEnds() {
    // given
    let actions = ObservableProperty(SetValue(10))
    weak var native: ReactorKit.Store<ValueState>?
    do {
      let store = ReactorKitReactiveReSwift.Store(
        reducer: valueReducer(), observable: ObservableProperty(ValueState()))
      native = store.reactorKitStore
      store.dispatch(actions)
    }

    // when
    actions.value = SetValue(20)

    // then
    XCTAssertNil(native)
    XCTAssertEqual(actions.subscriptionCount, 0)
  }

  func test_reducerDispatch_isQueuedInsteadOfNested() {
    // given
    let store = Locked<ReactorKitReactiveReSwift.Store<ObservableProperty<ValueState>>?>(nil)
    let reducer: Reducer<ValueState> = { action, state in
      if (action as? SetValue)?.value == 1 { store.value?.dispatch(SetValue(2)) }
      return valueReducer()(action, state)
    }
    store.value = .init(reducer: reducer, observable: ObservableProperty(ValueState()))
    var received: [Int?] = []
    store.value?.observable.subscribe { received.append($0.value) }

    // when
    store.value?.dispatch(SetValue(1))

    // then
    XCTAssertEqual(received, [nil, 1, 2])
  }

  func test_reactorKitStore_sharesStateActionsAndTestStore() {
    // given
    let store = ReactorKitReactiveReSwift.Store(
      reducer: valueReducer(), observable: ObservableProperty(ValueState()))
    let testStore = TestStore(store: store.reactorKitStore)
    var observed: [Int?] = []
    store.observable.subscribe { observed.append($0.value) }

    // when
    testStore.send(SetValue(4)) { $0.value = 4 }
    store.dispatch(SetValue(5))
    testStore.receive(SetValue(5)) { $0.value = 5 }
    testStore.finish()

    // then: a native dispatch reaches the facade's observable too
    XCTAssertEqual(observed, [nil, 4, 5])
    XCTAssertEqual(store.reactorKitStore.currentState, ValueState(value: 5))
  }

  func test_dispatchFromEightThreads_reducesEachOnceAndPublishesInOrder() {
    // given
    let store = ReactorKitReactiveReSwift.Store(
      reducer: increaseBy(1), observable: ObservableProperty(CounterState()))
    let received = Locked<[Int]>([])
    store.observable.subscribe { state in received.update { $0.append(state.count) } }

    // when
    let finished = runConcurrentlyWithin(defaultConcurrencyTimeout, threads: 8) { _ in
      for _ in 0..<300 {
        store.dispatch(Noop())
        sched_yield()
      }
    }

    // then
    XCTAssertTrue(finished, "the dispatching threads did not finish in time")
    XCTAssertEqual(store.observable.value.count, 2400)
    XCTAssertEqual(received.value, Array(0...2400))
  }
}

/// A subclass as ReactiveReSwift's own tests write it.
private final class CountingStore<State>: ReactorKitReactiveReSwift.Store<
  ObservableProperty<State>
>,
@unchecked Sendable
{
  // Safety: set once during initialisation.
  private var onDeinit: (() -> Void)?

  convenience init(
    reducer: @escaping Reducer<State>, observable: ObservableProperty<State>,
    middleware: Middleware<State> = Middleware(), onDeinit: @escaping () -> Void
  ) {
    self.init(reducer: reducer, observable: observable, middleware: middleware)
    self.onDeinit = onDeinit
  }

  required init(
    reducer: @escaping Reducer<State>, observable: ObservableProperty<State>,
    middleware: Middleware<State>
  ) {
    super.init(reducer: reducer, observable: observable, middleware: middleware)
  }

  deinit { onDeinit?() }
}
