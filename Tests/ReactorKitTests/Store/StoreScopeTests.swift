import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class StoreScopeTests: ResourceTestCase {
  func test_scope_readsObservesAndDispatchesTheChildState() {
    // given: a feature that only knows its own state type
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
    let feature = CounterFeature(store: store.scope(\.counter))
    // when
    feature.increment()
    feature.increment()
    store.dispatch(ScopeLogAction(text: "not the counter's"))
    // then
    XCTAssertEqual(feature.store.currentState, ScopeCounter(value: 2))
    XCTAssertEqual(feature.rendered, [0, 1, 2])
    XCTAssertEqual(store.currentState.counter.value, 2)
    XCTAssertEqual(store.currentState.log, ["not the counter's"])
  }

  func test_scope_equatableChildStateEmitsOnlyWhenItChanges() {
    // given
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
    let bag = DisposeBag()
    var counters: [ScopeCounter] = []
    store.scope(\.counter).state.subscribe(onNext: { counters.append($0) }).disposed(by: bag)
    // when
    store.dispatch(ScopeLogAction(text: "a"))
    store.dispatch(ScopeCounterAction.increment)
    store.dispatch(ScopeLogAction(text: "b"))
    // then
    XCTAssertEqual(counters.map(\.value), [0, 1])
  }

  func test_scope_nonEquatableChildStateEmitsAfterEveryReduction() {
    // given
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
    let bag = DisposeBag()
    var values: [Int] = []
    store.scope(\.opaque).state.subscribe(onNext: { values.append($0.value) }).disposed(by: bag)
    // when
    store.dispatch(ScopeLogAction(text: "a"))
    store.dispatch(ScopeLogAction(text: "b"))
    // then
    XCTAssertEqual(values, [7, 7, 7])
  }

  func test_scope_sliceSharesOneEvaluationWithTheRootSliceOfTheJoinedPath() {
    // given: a computed key path that counts its evaluations
    let evaluations = Locked(0)
    let store = Store(
      reducer: scopeAppReducer,
      state: ScopeAppState(counter: ScopeCounter(evaluations: evaluations)))
    let bag = DisposeBag()
    var fromScope: [Int] = []
    var fromRoot: [Int] = []
    store.scope(\.counter).slice(\.tracked).subscribe(onNext: { fromScope.append($0) })
      .disposed(by: bag)
    store.slice(\.counter.tracked).subscribe(onNext: { fromRoot.append($0) }).disposed(by: bag)
    // when
    for _ in 0..<3 { store.dispatch(ScopeCounterAction.increment) }
    // then
    XCTAssertEqual(evaluations.withLock { $0 }, 4, "one evaluation per reduction, shared")
    XCTAssertEqual(fromScope, [0, 1, 2, 3])
    XCTAssertEqual(fromRoot, fromScope)
  }

  func test_scope_dispatchRunsThroughTheRootMiddlewareAndReducer() {
    // given
    let seen = Locked<[String]>([])
    let middleware = Middleware<ScopeAppState>().sideEffect { _, _, action in
      seen.withLock { $0.append(String(describing: action)) }
    }
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState(), middleware: [middleware])
    let scope = store.scope(\.counter)
    let bag = DisposeBag()
    var actions: [String] = []
    scope.actions.subscribe(onNext: { actions.append(String(describing: $0)) }).disposed(by: bag)
    // when
    scope.dispatch(ScopeCounterAction.increment)
    scope.dispatch(Observable<ScopeCounterAction>.of(.increment, .increment)).disposed(by: bag)
    scope.dispatch(Observable<any Action>.just(ScopeLogAction(text: "x"))).disposed(by: bag)
    // then
    XCTAssertEqual(seen.withLock { $0 }.count, 4)
    XCTAssertEqual(actions.count, 4)
    XCTAssertEqual(store.currentState.counter.value, 3)
    XCTAssertEqual(store.currentState.log, ["x"])
  }

  func test_scope_ofAScopeReachesTheGrandchild() {
    // given
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
    let settings = store.scope(\.nested).scope(\.settings)
    let bag = DisposeBag()
    var flags: [Bool] = []
    settings.slice(\.isOn).subscribe(onNext: { flags.append($0) }).disposed(by: bag)
    var whole: [ScopeSettings] = []
    settings.state.subscribe(onNext: { whole.append($0) }).disposed(by: bag)
    // when
    settings.dispatch(ScopeSettingsAction.toggle)
    store.dispatch(ScopeCounterAction.increment)
    // then
    XCTAssertEqual(flags, [false, true])
    XCTAssertEqual(whole.map(\.isOn), [false, true])
    XCTAssertTrue(settings.currentState.isOn)
  }

  func test_scope_ofTheWholeStoreServesAFeatureRunOnItsOwnStore() {
    // given: the feature's own store, as in the feature's tests
    let store = Store(reducer: scopeCounterReducer, state: ScopeCounter())
    // when
    let feature = CounterFeature(store: ScopedStore(store))
    feature.increment()
    // then
    XCTAssertEqual(feature.rendered, [0, 1])
    XCTAssertEqual(store.currentState.value, 1)
  }

  func test_scope_holdsTheStoreAndItsStreamsCompleteWhenTheStoreIsFreed() {
    // given
    weak var weakStore: Store<ScopeAppState>?
    var scope: ScopedStore<ScopeCounter>? = {
      let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
      weakStore = store
      return store.scope(\.counter)
    }()
    XCTAssertNotNil(weakStore, "the scope holds its store")
    var completed = 0
    let subscription = scope!.slice(\.value).subscribe(onCompleted: { completed += 1 })
    // when
    scope = nil
    // then
    XCTAssertNil(weakStore)
    XCTAssertEqual(completed, 1)
    subscription.dispose()
  }

  func test_scope_dispatchFromManyThreadsReducesEveryAction() {
    // given
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
    let scope = store.scope(\.counter)
    // when
    runConcurrently(threads: 4) { _ in
      for _ in 0..<500 { scope.dispatch(ScopeCounterAction.increment) }
    }
    // then
    XCTAssertEqual(scope.currentState.value, 2_000)
  }

  func test_scope_valuesAndStatesAreNonThrowingAsyncSequences() async {
    // given
    let store = Store(reducer: scopeAppReducer, state: ScopeAppState())
    let scope = store.scope(\.counter)
    var values = scope.values(\.value).makeAsyncIterator()
    var states = scope.states.makeAsyncIterator()
    // when
    await scope.send(ScopeCounterAction.increment)
    // then
    let firstValue = await values.next()
    let secondValue = await values.next()
    let firstState = await states.next()
    let secondState = await states.next()
    XCTAssertEqual([firstValue, secondValue], [0, 1])
    XCTAssertEqual([firstState?.value, secondState?.value], [0, 1])
  }
}

// MARK: - Fakes

/// A feature written against its own state: it never names `ScopeAppState`.
private final class CounterFeature {
  let store: ScopedStore<ScopeCounter>
  private let disposeBag = DisposeBag()
  private(set) var rendered: [Int] = []

  init(store: ScopedStore<ScopeCounter>) {
    self.store = store
    store.slice(\.value).subscribe(onNext: { [unowned self] in rendered.append($0) })
      .disposed(by: disposeBag)
  }

  func increment() { store.dispatch(ScopeCounterAction.increment) }
}

private enum ScopeCounterAction: Action { case increment }
private enum ScopeSettingsAction: Action { case toggle }
private struct ScopeLogAction: Action { var text: String }

private struct ScopeCounter: Equatable {
  var value = 0
  var evaluations: Locked<Int>?

  var tracked: Int {
    evaluations?.withLock { $0 += 1 }
    return value
  }

  static func == (lhs: ScopeCounter, rhs: ScopeCounter) -> Bool { lhs.value == rhs.value }
}

private struct ScopeSettings: Equatable { var isOn = false }
private struct ScopeNested: Equatable { var settings = ScopeSettings() }
/// Not `Equatable`.
private struct ScopeOpaque { var value = 7 }

private struct ScopeAppState {
  var counter = ScopeCounter()
  var nested = ScopeNested()
  var opaque = ScopeOpaque()
  var log: [String] = []
}

private let scopeCounterReducer = Reducer<ScopeCounter>.on(ScopeCounterAction.self) { counter, _ in
  counter.value += 1
}

private let scopeAppReducer = Reducer<ScopeAppState>.combine {
  scopeCounterReducer.lift(\.counter)
  Reducer<ScopeSettings>.on(ScopeSettingsAction.self) { settings, _ in settings.isOn.toggle() }
    .lift(\.nested.settings)
  Reducer<[String]>.on(ScopeLogAction.self) { log, action in log.append(action.text) }.lift(\.log)
}
