import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class StoreReactorBridgingTests: ResourceTestCase {
  private func makeStore() -> Store<DemoState> {
    Store(reducer: DemoState.reducer, state: DemoState())
  }

  func test_reactor_consumesASlice_startingWithTheCurrentValue() {
    // given
    let store = makeStore()
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    let reactor = SessionMirrorReactor(store: store)
    // when
    let state = reactor.currentStateAfterWiring
    // then
    XCTAssertEqual(state.userName, "ann")
    XCTAssertEqual(reactor.sliceMutations, 1)
  }

  func test_reactor_receivesTheSliceOnlyWhenItChanges() {
    // given
    let store = makeStore()
    let reactor = SessionMirrorReactor(store: store)
    var names: [String?] = []
    let subscription = reactor.state.map(\.userName).subscribe(onNext: { names.append($0) })
    // when
    store.dispatch(DemoAction.add("unrelated"))
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    store.dispatch(DemoAction.add("unrelated too"))
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    store.dispatch(DemoAction.logOut)
    // then
    XCTAssertEqual(names, [nil, "ann", nil])
    XCTAssertEqual(reactor.sliceMutations, 3, "one for the current value, one per change")
    subscription.dispose()
  }

  func test_reactor_sliceSubscriptionEnds_whenTheReactorIsFreed() {
    // given
    let store = makeStore()
    let disposed = StoreLockedBox(false)
    let deliveries = StoreLockedBox(0)
    weak var weakReactor: SessionMirrorReactor?
    do {
      let reactor = SessionMirrorReactor(
        store: store, onSliceDelivery: { deliveries.withLock { $0 += 1 } },
        onSliceDisposed: { disposed.withLock { $0 = true } })
      weakReactor = reactor
      _ = reactor.currentStateAfterWiring
      store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    }
    let beforeRelease = deliveries.current
    // when
    store.dispatch(DemoAction.logIn(name: "bob", password: "pw"))
    let afterFirst = deliveries.current
    store.dispatch(DemoAction.logIn(name: "cyd", password: "pw"))
    store.dispatch(DemoAction.logOut)
    // then
    XCTAssertNil(weakReactor, "the store, the slice and the engine must not keep the reactor")
    XCTAssertEqual(beforeRelease, 2)
    XCTAssertTrue(disposed.current, "the slice subscription must end once the reactor is gone")
    XCTAssertLessThanOrEqual(afterFirst, beforeRelease + 1, "at most one late delivery")
    XCTAssertEqual(deliveries.current, afterFirst, "no deliveries after the subscription ended")
  }

  func test_reactor_sliceSubscriptionEnds_withoutFurtherDispatches() {
    // given
    let store = makeStore()
    let disposed = StoreLockedBox(false)
    weak var weakReactor: SessionMirrorReactor?
    do {
      let reactor = SessionMirrorReactor(
        store: store, onSliceDisposed: { disposed.withLock { $0 = true } })
      weakReactor = reactor
      _ = reactor.currentStateAfterWiring
    }
    // when
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakReactor)
    XCTAssertTrue(disposed.current)
  }

  func test_storeHoldsNoReactor_andTheReactorHoldsTheStore() {
    // given
    weak var weakStore: Store<DemoState>?
    weak var weakReactor: SessionMirrorReactor?
    var reactor: SessionMirrorReactor?
    do {
      let store = makeStore()
      weakStore = store
      reactor = SessionMirrorReactor(store: store)
      weakReactor = reactor
      _ = reactor?.currentStateAfterWiring
    }
    // when
    let storeAliveWithReactor = weakStore != nil
    reactor = nil
    StorageTables.reactors.purge()
    // then
    XCTAssertTrue(storeAliveWithReactor)
    XCTAssertNil(weakReactor)
    XCTAssertNil(weakStore)
  }

  func test_reactor_dispatchesAGlobalAction_andKeepsItsOwnMutations() {
    // given
    let store = makeStore()
    let reactor = SessionMirrorReactor(store: store)
    var states: [SessionMirrorReactor.State] = []
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    // when
    reactor.action.onNext(.logIn("ann"))
    // then
    XCTAssertEqual(store.currentState.account?.name, "ann")
    XCTAssertEqual(
      states,
      [
        SessionMirrorReactor.State(),
        SessionMirrorReactor.State(isSaving: true),
        SessionMirrorReactor.State(userName: "ann", isSaving: true),
        SessionMirrorReactor.State(userName: "ann", isSaving: false),
        SessionMirrorReactor.State(userName: "ann", isSaving: false, message: "Signed in"),
      ], "the slice reports the dispatch before the reactor's own mutations that follow it")
    subscription.dispose()
  }

  func test_dispatchEffect_dispatchesOncePerSubscription_andNotBefore() {
    // given
    let store = makeStore()
    let effect: Observable<Int> = store.dispatchEffect(DemoAction.add("x"), then: .just(1))
    let beforeSubscribing = store.currentState.todos.count
    var values: [Int] = []
    // when
    _ = effect.subscribe(onNext: { values.append($0) })
    _ = effect.subscribe(onNext: { values.append($0) })
    // then
    XCTAssertEqual(beforeSubscribing, 0)
    XCTAssertEqual(store.currentState.todos.count, 2)
    XCTAssertEqual(values, [1, 1])
  }

  func test_dispatchEffect_withoutMutations_isEmpty() {
    // given
    let store = makeStore()
    var events: [Event<Int>] = []
    // when
    _ = store.dispatchEffect(DemoAction.logOut).subscribe { events.append($0) }
    // then
    XCTAssertEqual(events, [.completed])
  }

  func test_reactorsOnManyThreads_sharingOneStore_seeEveryChange() {
    // given
    let store = makeStore()
    let reactors = (0..<4).map { _ in CountMirrorReactor(store: store) }
    for reactor in reactors { _ = reactor.state }
    let perThread = StressConfiguration.iterations(100)
    let boxed = UncheckedBox(reactors)
    // when
    runConcurrently(threads: 4) { index in
      for sent in 0..<perThread {
        boxed.value[index].action.onNext(.add)
        if sent % 8 == 0 { sched_yield() }
      }
    }
    // then
    XCTAssertEqual(store.currentState.todos.count, 4 * perThread)
    for reactor in reactors {
      XCTAssertEqual(reactor.currentState, 4 * perThread)
    }
  }
}

/// Shows the signed-in user from the store, and signs in by dispatching a global action.
private final class SessionMirrorReactor: Reactor {
  enum Action { case logIn(String) }
  enum Mutation {
    case setUserName(String?)
    case setSaving(Bool)
    case setMessage(String)
  }
  struct State: Equatable {
    var userName: String?
    var isSaving = false
    var message = ""
  }

  let initialState = State()
  private let store: Store<DemoState>
  private let onSliceDelivery: @Sendable () -> Void
  private let onSliceDisposed: @Sendable () -> Void
  private(set) var sliceMutations = 0

  init(
    store: Store<DemoState>, onSliceDelivery: @escaping @Sendable () -> Void = {},
    onSliceDisposed: @escaping @Sendable () -> Void = {}
  ) {
    self.store = store
    self.onSliceDelivery = onSliceDelivery
    self.onSliceDisposed = onSliceDisposed
  }

  var currentStateAfterWiring: State {
    _ = state
    return currentState
  }

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .logIn(let name):
      return .concat(
        .just(.setSaving(true)),
        store.dispatchEffect(
          DemoAction.logIn(name: name, password: "pw"),
          then: .of(.setSaving(false), .setMessage("Signed in"))))
    }
  }

  func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    let delivered = onSliceDelivery
    let disposed = onSliceDisposed
    return .merge(
      mutation,
      store.slice(\.account?.name, as: Mutation.setUserName)
        .do(onNext: { _ in delivered() }, onDispose: { disposed() }))
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setUserName(let name):
      state.userName = name
      sliceMutations += 1
    case .setSaving(let isSaving): state.isSaving = isSaving
    case .setMessage(let message): state.message = message
    }
    return state
  }
}

/// Adds todos through the store and mirrors their count.
private final class CountMirrorReactor: Reactor {
  enum Action { case add }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  private let store: Store<DemoState>

  init(store: Store<DemoState>) {
    self.store = store
  }

  func mutate(action: Action) -> Observable<Int> {
    store.dispatchEffect(DemoAction.add("t"))
  }

  func transform(mutation: Observable<Int>) -> Observable<Int> {
    .merge(mutation, store.slice(\.todos.count, as: { $0 }))
  }

  func reduce(state: Int, mutation: Int) -> Int {
    mutation
  }
}
