import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// Failures around a store: middleware that outlives it, subscribers that fail, disposal in
/// the middle of a stream (see the "Failures and faults" article).
final class StoreFaultTests: ResourceTestCase {
  // MARK: - After the store is freed

  func test_middlewareDispatch_calledAfterTheStoreIsFreed_isDroppedQuietly() {
    // given: a middleware that keeps the store's `dispatch` and `getState` for later
    let kept = StoreLockedBox<(Middleware<StoreCounterState>.Dispatch, () -> StoreCounterState)?>(
      nil)
    weak var weakStore: Store<StoreCounterState>?
    do {
      let store = Store(
        reducer: storeCounterReducer, state: StoreCounterState(),
        middleware: [
          Middleware().sideEffect { getState, dispatch, _ in
            kept.withLock { $0 = (dispatch, getState) }
          }
        ])
      weakStore = store
      store.dispatch(StoreCounterAction.add(2))
    }
    XCTAssertNil(weakStore)
    let (dispatch, getState) = kept.current!
    // when: from this thread and from another one
    dispatch(StoreCounterAction.increment)
    let done = DispatchSemaphore(value: 0)
    let send = UncheckedDispatch(dispatch)
    Thread {
      send.dispatch(StoreCounterAction.increment)
      done.signal()
    }.start()
    // then: nothing happens; `getState` still returns the last state
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(getState().count, 2)
    kept.withLock { $0 = nil }
  }

  func test_reduxNext_calledAfterTheStoreIsFreed_isDroppedQuietly() {
    // given: a redux middleware that keeps `next`
    let kept = StoreLockedBox<Middleware<StoreCounterState>.Dispatch?>(nil)
    let reductions = StoreLockedBox(0)
    weak var weakStore: Store<StoreCounterState>?
    do {
      let store = Store(
        reducer: Reducer { state, action in
          reductions.withLock { $0 += 1 }
          storeCounterReducer.reduce(&state, action)
        }, state: StoreCounterState(),
        middleware: [
          .redux { _, _ in
            { next in
              kept.withLock { $0 = next }
              return next
            }
          }
        ])
      weakStore = store
      store.dispatch(StoreCounterAction.increment)
    }
    XCTAssertNil(weakStore)
    // when
    let next = UncheckedDispatch(kept.current!)
    let done = DispatchSemaphore(value: 0)
    Thread {
      next.dispatch(StoreCounterAction.increment)
      done.signal()
    }.start()
    // then
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
    XCTAssertEqual(reductions.current, 1)
    kept.withLock { $0 = nil }
  }

  func test_asynchronousSideEffect_finishingAfterTheStoreIsFreed_dispatchesNothing() {
    // given: a side effect that dispatches its result from a background queue later, and a
    // reducer that records every action it reduces
    let release = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let reduced = StoreLockedBox<[String]>([])
    let dispatchedLate = StoreLockedBox(false)
    weak var weakStore: Store<StoreCounterState>?
    do {
      let store = Store(
        reducer: Reducer { state, action in
          reduced.withLock { $0.append(describeStoreAction(action)) }
          storeCounterReducer.reduce(&state, action)
        }, state: StoreCounterState(),
        middleware: [
          Middleware().sideEffect { _, dispatch, action in
            guard case StoreCounterAction.increment = action else { return }
            let send = UncheckedDispatch(dispatch)
            DispatchQueue.global().async {
              release.wait()
              send.dispatch(StoreLogAction(text: "loaded"))
              dispatchedLate.withLock { $0 = true }
              finished.signal()
            }
          }
        ])
      weakStore = store
      store.dispatch(StoreCounterAction.increment)
    }
    // when: the store is gone before the effect finishes
    XCTAssertNil(weakStore)
    XCTAssertEqual(reduced.current, ["increment"])
    release.signal()
    // then: the effect did dispatch, and nothing was reduced
    XCTAssertEqual(finished.wait(timeout: .now() + 10), .success)
    XCTAssertTrue(dispatchedLate.current)
    XCTAssertEqual(reduced.current, ["increment"], "the late dispatch must reduce nothing")
    XCTAssertNil(weakStore)
  }

  func test_keptDispatch_racingWithTheStoreBeingFreed_dropsQuietly_andCompletesSubscribersOnce() {
    // given: a middleware keeps `dispatch`; the store's only owner is a box another thread
    // empties
    let kept = StoreLockedBox<Middleware<StoreCounterState>.Dispatch?>(nil)
    let owner = StoreLockedBox<Store<StoreCounterState>?>(nil)
    let reductions = AtomicBox<Int>(0)
    let completions = AtomicBox<Int>(0)
    weak var weakStore: Store<StoreCounterState>?
    do {
      let store = Store(
        reducer: Reducer { state, action in
          reductions.wrappingAdd(1, ordering: .relaxed)
          storeCounterReducer.reduce(&state, action)
        }, state: StoreCounterState(),
        middleware: [
          Middleware().sideEffect { _, dispatch, _ in
            // Only the first: `$0 = $0 ?? dispatch` would wrap the kept closure in two more
            // reabstraction thunks per action, a chain whose release overflows the stack.
            kept.withLock { if $0 == nil { $0 = dispatch } }
          }
        ])
      store.dispatch(StoreCounterAction.reset)
      // Never disposed: freeing the store completes it.
      _ = store.state.subscribe(onCompleted: { completions.wrappingAdd(1, ordering: .relaxed) })
      weakStore = store
      owner.withLock { $0 = store }
    }
    let dispatch = UncheckedDispatch(kept.current!)
    let released = AtomicBox<Bool>(false)
    let afterRelease = StressConfiguration.iterations(
      StoreStress.isThreadSanitizerActive ? 200 : 1_000)
    // when: four threads dispatch through it before, while and after a fifth lets go of the
    // store (the last reference may be the one a dispatching thread holds for its dispatch)
    runConcurrently(threads: 5) { thread in
      if thread == 0 {
        XCTAssertTrue(
          spinUntil { reductions.load(ordering: .relaxed) >= 100 },
          "waited 10 s for: reductions.load(ordering: .relaxed) >= 100")
        owner.withLock { $0 = nil }
        released.store(true, ordering: .releasing)
        return
      }
      var sent = 0
      while !released.load(ordering: .acquiring) {
        dispatch.dispatch(StoreCounterAction.increment)
        sent += 1
        if sent % 8 == 0 { sched_yield() }
      }
      for _ in 0..<afterRelease { dispatch.dispatch(StoreCounterAction.increment) }
    }
    // then: the store is gone, its subscriber completed once, and dispatching does nothing
    XCTAssertTrue(waitUntil { completions.load(ordering: .acquiring) > 0 })
    XCTAssertNil(weakStore)
    XCTAssertEqual(completions.load(ordering: .acquiring), 1)
    let reduced = reductions.load(ordering: .acquiring)
    XCTAssertGreaterThanOrEqual(reduced, 100)
    dispatch.dispatch(StoreCounterAction.increment)
    XCTAssertEqual(reductions.load(ordering: .acquiring), reduced)
    kept.withLock { $0 = nil }
  }

  // MARK: - Subscribers

  func test_stateSubscriber_errorThrownDownstream_endsOnlyThatSubscription_andReleasesIt() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var failing: [Event<Int>] = []
    var healthy: [Int] = []
    let failingSubscription = store.slice(\.count)
      .map { count -> Int in
        if count == 2 { throw TestError(2) }
        return count
      }
      .subscribe { failing.append($0) }
    let healthySubscription = store.state.subscribe(onNext: { healthy.append($0.count) })
    let withBoth = Resources.total
    // when
    for _ in 0..<3 { store.dispatch(StoreCounterAction.increment) }
    // then
    XCTAssertEqual(failing, [.next(0), .next(1), .error(TestError(2))])
    XCTAssertEqual(healthy, [0, 1, 2, 3])
    XCTAssertLessThan(Resources.total, withBoth, "the failed subscription is released")
    failingSubscription.dispose()
    healthySubscription.dispose()
  }

  func test_subscriberDisposingOthersAndItselfDuringANotification_storeKeepsWorking() {
    // given: the first subscriber disposes every subscription, including its own, on count 2
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var subscriptions: [Disposable] = []
    var received: [[Int]] = [[], [], []]
    for index in 0..<3 {
      subscriptions.append(
        store.slice(\.count).subscribe(onNext: { count in
          received[index].append(count)
          if index == 0 && count == 2 {
            for subscription in subscriptions { subscription.dispose() }
          }
        }))
    }
    // when
    for _ in 0..<4 { store.dispatch(StoreCounterAction.increment) }
    // then
    XCTAssertEqual(received, [[0, 1, 2], [0, 1], [0, 1]])
    XCTAssertEqual(store.currentState.count, 4)
    let late = store.slice(\.count).subscribe(onNext: { received[0].append($0) })
    XCTAssertEqual(received[0].last, 4)
    late.dispose()
  }

  // MARK: - Disposal mid-stream

  func test_dispatchObservable_failingSource_keepsWhatItDispatched_andEndsOnlyItsSubscription() {
    // given: two sequences dispatched to one store
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let healthy = PublishSubject<any Action>()
    let failing = PublishSubject<any Action>()
    let healthySubscription = store.dispatch(healthy.asObservable())
    let beforeFailing = Resources.total
    store.dispatch(failing.asObservable())
    // when: one fails after dispatching an action
    failing.onNext(StoreCounterAction.add(2))
    failing.onError(TestError(1))
    // then: its action stays reduced, its subscription is released, the rest keeps working
    XCTAssertEqual(store.currentState.count, 2)
    XCTAssertFalse(failing.hasObservers)
    XCTAssertEqual(Resources.total, beforeFailing, "the failed subscription is released")
    healthy.onNext(StoreCounterAction.increment)
    store.dispatch(StoreCounterAction.add(10))
    XCTAssertEqual(store.currentState.count, 13)
    healthySubscription.dispose()
  }

  func test_dispatchObservable_disposedMidStreamFromAnotherThread_stopsDispatching() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let source = PublishSubject<any Action>()
    let subscription = store.dispatch(source.asObservable())
    let box = UncheckedDisposable(subscription)
    let disposed = AtomicBox<Bool>(false)
    let countAtDispose = AtomicBox<Int>(-1)
    let lateSends = AtomicBox<Int>(0)
    let sendsAfterDisposal = 100
    // when: one thread sends until it sees the disposal and then 100 more; another disposes
    // while it sends
    runConcurrently(threads: 2) { thread in
      if thread == 0 {
        let deadline = Date().addingTimeInterval(60)
        var sent = 0
        while !disposed.load(ordering: .acquiring) && Date() < deadline {
          source.onNext(StoreCounterAction.increment)
          sent += 1
          if sent % 16 == 0 { sched_yield() }
        }
        for _ in 0..<sendsAfterDisposal {
          source.onNext(StoreCounterAction.increment)
          lateSends.wrappingAdd(1, ordering: .relaxed)
        }
      } else {
        XCTAssertTrue(
          spinUntil { store.currentState.count >= 100 },
          "waited 10 s for: store.currentState.count >= 100")
        box.disposable.dispose()
        countAtDispose.store(store.currentState.count, ordering: .releasing)
        disposed.store(true, ordering: .releasing)
      }
    }
    // then: the sender went on after the disposal, yet at most the dispatch already under way
    // when `dispose` returned went through
    let atDispose = countAtDispose.load(ordering: .acquiring)
    XCTAssertGreaterThanOrEqual(atDispose, 100)
    XCTAssertEqual(lateSends.load(ordering: .relaxed), sendsAfterDisposal)
    XCTAssertLessThanOrEqual(store.currentState.count, atDispose + 1)
    XCTAssertFalse(source.hasObservers)
  }
}

// MARK: - Helpers

/// Hands a store's `dispatch` (or a middleware's `next`) to another thread; both are
/// thread-safe.
private struct UncheckedDispatch: @unchecked Sendable {
  // Safety: the closure only calls into a store through a weak reference; stores are
  // thread-safe.
  let dispatch: (any Action) -> Void
  init(_ dispatch: @escaping (any Action) -> Void) { self.dispatch = dispatch }
}

/// Hands a disposable to another test thread; `dispose()` is thread-safe.
private struct UncheckedDisposable: @unchecked Sendable {
  // Safety: `Disposable.dispose()` is thread-safe; the reference itself is immutable.
  let disposable: Disposable
  init(_ disposable: Disposable) { self.disposable = disposable }
}
