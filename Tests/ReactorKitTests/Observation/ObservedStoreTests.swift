import Foundation
import Observation
import ReactorKitTesting
import Synchronization
import XCTest

@testable import ReactorKit

final class ObservedStoreTests: ResourceTestCase {
  // MARK: - Reading and dispatching

  @MainActor
  func test_observedStore_readsStateThroughDynamicMembers() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState(count: 2))
    // when
    let model = ObservedStore(store)
    // then
    XCTAssertEqual(model.count, 2)
    XCTAssertEqual(model.log, [])
    XCTAssertEqual(model.state, StoreCounterState(count: 2))
  }

  @MainActor
  func test_dispatch_updatesTheModelBeforeReturningOnTheMainThread() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = store.observed()
    // when
    model.dispatch(StoreCounterAction.add(3))
    model.dispatch(StoreLogAction(text: "added"))
    // then
    XCTAssertEqual(model.count, 3)
    XCTAssertEqual(model.log, ["added"])
    XCTAssertEqual(store.currentState.count, 3)
  }

  @MainActor
  func test_observedStore_showsActionsDispatchedToTheStoreDirectly() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(model.count, 1)
  }

  // MARK: - Property-level tracking

  @MainActor
  func test_observationTracking_reportsOnlyChangesOfPropertiesThatWereRead() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    _ = model.log
    let changes = trackChanges { _ = model.count }
    // when
    model.dispatch(StoreLogAction(text: "one"))
    model.dispatch(StoreCounterAction.reset)
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    model.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(changes.offMainCount, 0)
  }

  @MainActor
  func test_observationTracking_reportsOnlyChangesOfAnEquatableWholeState() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    let changes = trackChanges { _ = model.state }
    // when
    model.dispatch(StoreCounterAction.reset)
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    model.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  // MARK: - Slices

  @MainActor
  func test_observedPath_showsTheValueAtThePathAndDispatchesToTheStore() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState(count: 5))
    let model = store.observed(\.count)
    // when
    model.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(model.state, 6)
    XCTAssertEqual(store.currentState.count, 6)
  }

  @MainActor
  func test_observedPath_isNotToldAboutChangesElsewhereInTheState() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = store.observed(\.count)
    let changes = trackChanges { _ = model.state }
    // when
    store.dispatch(StoreLogAction(text: "unrelated"))
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(changes.count, 1)
  }

  @MainActor
  func test_observedPath_tracksPropertiesOfTheSlice() async {
    // given
    let store = Store(reducer: settingsReducer, state: AppSettingsState())
    let model = store.observed(\.settings)
    let changes = trackChanges { _ = model.theme }
    // when
    store.dispatch(SettingsAction.setVolume(3))
    // then
    XCTAssertEqual(changes.count, 0)
    XCTAssertEqual(model.volume, 3)
    // when
    store.dispatch(SettingsAction.setTheme("dark"))
    // then
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(model.theme, "dark")
  }

  @MainActor
  func test_observedPathOfANonEquatableValue_receivesEveryReduction() async {
    // given
    let store = Store(reducer: settingsReducer, state: AppSettingsState())
    let model = store.observed(\.history)
    let wholeChanges = trackChanges { _ = model.state }
    let entryChanges = trackChanges { _ = model.entries }
    // when
    store.dispatch(SettingsAction.setVolume(1))
    // then: the slice is not Equatable, but its `entries` are
    XCTAssertEqual(wholeChanges.count, 1)
    XCTAssertEqual(entryChanges.count, 0)
    // when
    store.dispatch(SettingsAction.record("x"))
    // then
    XCTAssertEqual(model.entries, ["x"])
  }

  // MARK: - Main-actor delivery

  @MainActor
  func test_dispatchFromAnotherThread_isAppliedOnTheMainQueue() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = store.observed(\.count)
    let changes = trackChanges { _ = model.state }
    // when
    let done = Atomic<Bool>(false)
    Thread {
      store.dispatch(StoreCounterAction.add(2))
      done.store(true, ordering: .releasing)
    }.start()
    XCTAssertTrue(waitUntil { done.load(ordering: .acquiring) })
    // then: not applied until the main queue runs
    XCTAssertEqual(model.state, 0)
    let applied = await suspend { model.state == 2 }
    XCTAssertTrue(applied)
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(changes.offMainCount, 0)
  }

  @MainActor
  func test_dispatchesFromManyThreads_reachTheModelInOrder() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    let threads = 4
    let dispatchesPerThread = 500
    let finished = Atomic<Bool>(false)
    Thread {
      runConcurrently(threads: threads) { _ in
        for _ in 0..<dispatchesPerThread { store.dispatch(StoreCounterAction.increment) }
      }
      finished.store(true, ordering: .releasing)
    }.start()
    // when
    var seen: [Int] = []
    let total = threads * dispatchesPerThread
    let reachedTotal = await suspend {
      seen.append(model.count)
      return finished.load(ordering: .acquiring) && model.count == total
    }
    // then
    XCTAssertTrue(reachedTotal)
    XCTAssertEqual(seen, seen.sorted())
    XCTAssertEqual(model.count, total)
  }

  // MARK: - Reentrancy

  @MainActor
  func test_dispatchFromAnObserver_runsAfterTheCurrentChange() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    withObservationTracking {
      _ = model.count
    } onChange: {
      MainActor.assumeIsolated { model.dispatch(StoreLogAction(text: "count changed")) }
    }
    // when
    model.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(model.count, 1)
    XCTAssertEqual(model.log, ["count changed"])
  }

  // MARK: - Lifetime

  @MainActor
  func test_releasingTheModel_releasesTheModelAndTheStore() async {
    // given
    weak var weakModel: ObservedStore<Int>?
    weak var weakStore: Store<StoreCounterState>?
    // when
    do {
      let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
      weakStore = store
      let model = store.observed(\.count)
      weakModel = model
      _ = trackChanges { _ = model.state }
      model.dispatch(StoreCounterAction.increment)
    }
    // then
    XCTAssertNil(weakModel)
    XCTAssertNil(weakStore)
  }

  @MainActor
  func test_releasingTheModel_endsItsSubscriptionToAStoreThatLivesOn() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let before = Resources.total
    weak var weakWhole: ObservedStore<StoreCounterState>?
    weak var weakSlice: ObservedStore<Int>?
    do {
      let whole = ObservedStore(store)
      let slice = store.observed(\.count)
      weakWhole = whole
      weakSlice = slice
      XCTAssertGreaterThan(Resources.total, before)
    }
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertNil(weakWhole)
    XCTAssertNil(weakSlice)
    XCTAssertEqual(Resources.total, before)
  }
}

/// Actions of ``settingsReducer``.
private enum SettingsAction: Action {
  case setTheme(String)
  case setVolume(Int)
  case record(String)
}

/// A state with an `Equatable` part and a part that is not.
private struct AppSettingsState {
  struct Settings: Equatable {
    var theme = "light"
    var volume = 5
  }

  struct History {
    var entries: [String] = []
  }

  var settings = Settings()
  var history = History()
}

private var settingsReducer: Reducer<AppSettingsState> {
  Reducer { state, action in
    switch action {
    case SettingsAction.setTheme(let theme): state.settings.theme = theme
    case SettingsAction.setVolume(let volume): state.settings.volume = volume
    case SettingsAction.record(let entry): state.history.entries.append(entry)
    default: break
    }
  }
}
