import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class StoreTests: ResourceTestCase {
  func test_store_stateEmitsCurrentStateFirstThenEachNewState() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState(count: 5))
    store.dispatch(StoreCounterAction.increment)
    var received: [Int] = []
    // when
    let subscription = store.state.subscribe(onNext: { received.append($0.count) })
    store.dispatch(StoreCounterAction.add(2))
    store.dispatch(StoreCounterAction.reset)
    subscription.dispose()
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(received, [6, 8, 0])
  }

  func test_store_currentStateIsTheStateAfterTheLastReduction() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    // when
    store.dispatch(StoreCounterAction.add(3))
    store.dispatch(StoreLogAction(text: "x"))
    // then
    XCTAssertEqual(store.currentState, StoreCounterState(count: 3, log: ["x"]))
  }

  func test_store_actionsEmitEachActionJustBeforeItIsReduced() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var seen: [String] = []
    let subscription = store.actions.subscribe(onNext: { action in
      seen.append("\(describeStoreAction(action))@\(store.currentState.count)")
    })
    // when
    store.dispatch(StoreCounterAction.add(2))
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(seen, ["add(2)@0", "increment@2"])
    subscription.dispose()
  }

  func test_store_reducerSeesStoreCurrentStateAsThePreviousState() {
    // given
    let seenInside = StoreLockedBox<[Int]>([])
    let holder = StoreLockedBox<Store<Int>?>(nil)
    let store = Store(
      reducer: Reducer<Int> { state, _ in
        seenInside.withLock { $0.append(holder.current?.currentState ?? -1) }
        state += 1
      }, state: 0)
    holder.withLock { $0 = store }
    // when
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(seenInside.current, [0, 1])
    holder.withLock { $0 = nil }
  }

  func test_store_dispatchObservableDispatchesEachElementUntilDisposed() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let subject = PublishSubject<any Action>()
    // when
    let subscription = store.dispatch(subject.asObservable())
    subject.onNext(StoreCounterAction.add(2))
    subject.onNext(StoreCounterAction.increment)
    subscription.dispose()
    subject.onNext(StoreCounterAction.add(100))
    // then
    XCTAssertEqual(store.currentState.count, 3)
  }

  func test_store_dispatchObservableDoesNotKeepTheStoreAlive() {
    // given
    let subject = PublishSubject<any Action>()
    weak var weakStore: Store<StoreCounterState>?
    var subscription: Disposable?
    do {
      let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
      weakStore = store
      subscription = store.dispatch(subject.asObservable())
      subject.onNext(StoreCounterAction.increment)
      XCTAssertEqual(store.currentState.count, 1)
    }
    // when
    subject.onNext(StoreCounterAction.increment)
    // then
    XCTAssertNil(weakStore)
    subscription?.dispose()
  }

  func test_store_dispatchFromReducerIsQueuedAfterTheCurrentAction() {
    // given
    let holder = StoreLockedBox<Store<[String]>?>(nil)
    let store = Store(
      reducer: Reducer<[String]> { state, action in
        state.append(describeStoreAction(action))
        if case StoreCounterAction.add(let amount) = action, amount > 0 {
          holder.current?.dispatch(StoreCounterAction.add(amount - 1))
          state.append("dispatched add(\(amount - 1))")
        }
      }, state: [])
    holder.withLock { $0 = store }
    // when
    store.dispatch(StoreCounterAction.add(2))
    // then
    XCTAssertEqual(
      store.currentState,
      ["add(2)", "dispatched add(1)", "add(1)", "dispatched add(0)", "add(0)"])
    holder.withLock { $0 = nil }
  }

  func test_store_dispatchFromSubscriberRunsAfterEverySubscriberWasNotified() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var log: [String] = []
    let first = store.state.subscribe(onNext: { state in
      log.append("first:\(state.count)")
      if state.count == 1 {
        store.dispatch(StoreCounterAction.add(10))
        log.append("first returned at \(store.currentState.count)")
      }
    })
    let second = store.slice(\.count).subscribe(onNext: { count in log.append("second:\(count)") })
    log.removeAll()
    // when
    store.dispatch(StoreCounterAction.increment)
    log.append("outer returned at \(store.currentState.count)")
    // then
    XCTAssertEqual(
      log,
      [
        "first:1", "first returned at 1", "second:1",
        "first:11", "second:11",
        "outer returned at 11",
      ])
    first.dispose()
    second.dispose()
  }

  func test_store_reentrantDispatchesRunInFIFOOrder() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let reduced = recordActions(of: store)
    let subscription = store.actions.subscribe(onNext: { action in
      switch describeStoreAction(action) {
      case "log(start)":
        store.dispatch(StoreLogAction(text: "a"))
        store.dispatch(StoreLogAction(text: "b"))
      case "log(a)":
        store.dispatch(StoreLogAction(text: "c"))
      default:
        break
      }
    })
    // when
    store.dispatch(StoreLogAction(text: "start"))
    // then
    XCTAssertEqual(reduced.current, ["log(start)", "log(a)", "log(b)", "log(c)"])
    XCTAssertEqual(store.currentState.log, ["start", "a", "b", "c"])
    subscription.dispose()
  }

  func test_store_manyReentrantDispatchesDoNotRecurse() {
    // given: each reduction dispatches the next one, 10,000 deep
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let subscription = store.slice(\.count).subscribe(onNext: { count in
      if count > 0 && count < 10_000 { store.dispatch(StoreCounterAction.increment) }
    })
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(store.currentState.count, 10_000)
    subscription.dispose()
  }

  func test_store_subscribingInsideASubscriberGetsTheCurrentValueOnce() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var inner: [Int] = []
    var innerStates: [Int] = []
    var innerSubscriptions: [Disposable] = []
    let outer = store.state.subscribe(onNext: { state in
      guard state.count == 1 else { return }
      innerSubscriptions.append(store.slice(\.count).subscribe(onNext: { inner.append($0) }))
      innerSubscriptions.append(store.state.subscribe(onNext: { innerStates.append($0.count) }))
    })
    let existing = store.slice(\.count).subscribe(onNext: { _ in })
    // when
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreCounterAction.increment)
    // then: no duplicate of 1 although the group had not been evaluated yet when joined
    XCTAssertEqual(inner, [1, 2])
    XCTAssertEqual(innerStates, [1, 2])
    outer.dispose()
    existing.dispose()
    innerSubscriptions.forEach { $0.dispose() }
  }

  func test_store_manySubscribersAddedInsideDelivery_everyEarlierSubscriberStillNotifiedOnce() {
    // given: the first subscriber adds enough subscribers to make the registry grow while
    // the store is still delivering the same state to the ones after it
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var added: [Disposable] = []
    var addedCalls = 0
    var laterCalls: [Int] = []
    let first = store.state.subscribe(onNext: { state in
      guard state.count == 1 else { return }
      for _ in 0..<100 {
        added.append(store.state.subscribe(onNext: { _ in addedCalls += 1 }))
      }
    })
    let later = (0..<3).map { index in
      store.state.subscribe(onNext: { state in laterCalls.append(index * 10 + state.count) })
    }
    // when
    store.dispatch(StoreCounterAction.increment)
    // then: each new subscriber got the current state once; each earlier one got it once
    XCTAssertEqual(addedCalls, 100)
    XCTAssertEqual(laterCalls, [0, 10, 20, 1, 11, 21])
    store.dispatch(StoreCounterAction.increment)
    XCTAssertEqual(addedCalls, 200)
    first.dispose()
    later.forEach { $0.dispose() }
    added.forEach { $0.dispose() }
  }

  func test_store_disposingInsideACallbackStopsDeliveryAtOnce() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var first: [Int] = []
    var second: [Int] = []
    var secondSubscription: Disposable?
    let firstSubscription = store.state.subscribe(onNext: { state in
      first.append(state.count)
      if state.count == 1 { secondSubscription?.dispose() }
    })
    secondSubscription = store.state.subscribe(onNext: { second.append($0.count) })
    // when
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(first, [0, 1, 2])
    XCTAssertEqual(second, [0], "A subscriber disposed during delivery must not get that state.")
    firstSubscription.dispose()
  }

  func test_store_disposedSubscriptionsAreReleased() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let start = Resources.total
    var subscriptions: [Disposable] = []
    for _ in 0..<10 {
      subscriptions.append(store.state.subscribe(onNext: { _ in }))
      subscriptions.append(store.slice(\.count).subscribe(onNext: { _ in }))
      subscriptions.append(store.actions.subscribe(onNext: { _ in }))
    }
    store.dispatch(StoreCounterAction.increment)
    XCTAssertGreaterThan(Resources.total, start)
    // when
    subscriptions.forEach { $0.dispose() }
    subscriptions.removeAll()
    // then
    XCTAssertEqual(Resources.total, start)
  }

  func test_store_freedWhenReleasedAndItsSubscriptionsComplete() {
    // given
    weak var weakStore: Store<StoreCounterState>?
    var events: [String] = []
    let start = Resources.total
    do {
      let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
      weakStore = store
      // Never disposed: freeing the store ends them.
      _ = store.state.subscribe(
        onNext: { events.append("state:\($0.count)") }, onCompleted: { events.append("done") })
      _ = store.slice(\.count).subscribe(onNext: { _ in }, onCompleted: { events.append("done") })
      _ = store.select { $0.log.count }.subscribe(onCompleted: { events.append("done") })
      _ = store.actions.subscribe(onCompleted: { events.append("done") })
      store.dispatch(StoreCounterAction.increment)
    }
    // then
    XCTAssertNil(weakStore)
    XCTAssertEqual(events, ["state:0", "state:1", "done", "done", "done", "done"])
    XCTAssertEqual(Resources.total, start)
  }

  func test_store_observablesHoldTheStore() {
    // given
    weak var weakStore: Store<StoreCounterState>?
    var state: Observable<StoreCounterState>?
    do {
      let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
      weakStore = store
      state = store.state
    }
    // when
    XCTAssertNotNil(weakStore)
    var received: [Int] = []
    let subscription = state!.subscribe(onNext: { received.append($0.count) })
    state = nil
    // then
    XCTAssertEqual(received, [0])
    XCTAssertNil(weakStore, "A subscription alone must not keep the store alive.")
    subscription.dispose()
  }
}
