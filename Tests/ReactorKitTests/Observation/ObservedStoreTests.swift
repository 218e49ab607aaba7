import Foundation
import Observation
import ReactorKitStreams
import ReactorKitTesting
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

  @MainActor
  func test_observationTracking_reportsEachOfManyPropertiesOnlyWhenItChanges() async {
    // given
    let store = Store(reducer: gridReducer, state: GridState())
    let model = ObservedStore(store)
    let changes = (0..<GridState.size).map { index in
      trackChanges { _ = model[dynamicMember: \.cells[index]] }
    }
    // when
    store.dispatch(GridAction.setCell(5, 1))
    // then
    XCTAssertEqual(changes.map(\.count), (0..<GridState.size).map { $0 == 5 ? 1 : 0 })
    // when
    store.dispatch(GridAction.setAll(2))
    // then
    XCTAssertEqual(changes.map(\.count), Array(repeating: 1, count: GridState.size))
    XCTAssertEqual(model.cells, Array(repeating: 2, count: GridState.size))
  }

  @MainActor
  func test_observedStore_tracksAKeyPathMadeAtRunTimeAsTheEqualLiteral() async {
    // given
    let store = Store(reducer: gridReducer, state: GridState())
    let model = ObservedStore(store)
    let madeAtRunTime = (\GridState.header).appending(path: \GridState.Header.title)
    _ = model[dynamicMember: \.header.title]
    let changes = trackChanges { _ = model[dynamicMember: madeAtRunTime] }
    _ = model[dynamicMember: \.cells[3]]
    _ = model[dynamicMember: \.cells[3]]
    _ = model.state
    _ = model[dynamicMember: \.self]
    // then
    XCTAssertEqual(model.observed.memberCount, 3)
    // when
    store.dispatch(GridAction.setCell(3, 1))
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    store.dispatch(GridAction.setTitle("Grid"))
    // then
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(model[dynamicMember: madeAtRunTime], "Grid")
  }

  @MainActor
  func test_observationTracking_comparesAComputedPropertyByItsValue() async {
    // given
    let store = Store(reducer: gridReducer, state: GridState())
    let model = ObservedStore(store)
    let changes = trackChanges { _ = model.total }
    // when
    store.dispatch(GridAction.setTitle("unrelated"))
    store.dispatch(GridAction.setCell(0, 0))
    // then
    XCTAssertEqual(changes.count, 0)
    // when
    store.dispatch(GridAction.setCell(0, 4))
    // then
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(model.total, 4)
  }

  @MainActor
  func test_readingManyNewPropertiesFromAnObserver_leavesTheOtherChangesReported() async {
    // given
    let store = Store(reducer: gridReducer, state: GridState())
    let model = ObservedStore(store)
    let seenInObserver = Locked<[Int]>([])
    withObservationTracking {
      _ = model[dynamicMember: \.header.title]
    } onChange: {
      MainActor.assumeIsolated {
        let cells = (0..<GridState.size).map { model[dynamicMember: \.cells[$0]] }
        seenInObserver.withLock { $0 = cells }
      }
    }
    let totalChanges = trackChanges { _ = model.total }
    let subtitleChanges = trackChanges { _ = model[dynamicMember: \.header.subtitle] }
    // when: one state changes all three; the first observer adds members meanwhile
    store.dispatch(GridAction.setHeaderAndCells(title: "t", subtitle: "s", cell: 1))
    // then: it saw the old state, and the later properties were still reported
    XCTAssertEqual(seenInObserver.current, Array(repeating: 0, count: GridState.size))
    XCTAssertEqual(totalChanges.count, 1)
    XCTAssertEqual(subtitleChanges.count, 1)
    XCTAssertEqual(model.observed.memberCount, 3 + GridState.size)
    // when: a property first read from the observer is tracked like any other
    let cellChanges = trackChanges { _ = model[dynamicMember: \.cells[7]] }
    store.dispatch(GridAction.setCell(7, 9))
    // then
    XCTAssertEqual(cellChanges.count, 1)
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
    let done = AtomicBox<Bool>(false)
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
    let finished = AtomicBox<Bool>(false)
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

  @MainActor
  func test_dispatchesFromTheMainThreadAndOthersAtOnce_reachTheModelInOrder() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    let threads = 2
    let dispatchesPerThread = 300
    let mainDispatches = 300
    let finished = AtomicBox<Bool>(false)
    Thread {
      runConcurrently(threads: threads) { _ in
        for _ in 0..<dispatchesPerThread { store.dispatch(StoreCounterAction.increment) }
      }
      finished.store(true, ordering: .releasing)
    }.start()
    // when: the main thread dispatches too, letting the main queue run in between
    var seen: [Int] = []
    for _ in 0..<mainDispatches {
      store.dispatch(StoreCounterAction.increment)
      seen.append(model.count)
      await Task.yield()
    }
    let total = threads * dispatchesPerThread + mainDispatches
    let reachedTotal = await suspend {
      seen.append(model.count)
      return finished.load(ordering: .acquiring) && model.count == total
    }
    // then
    XCTAssertTrue(reachedTotal)
    XCTAssertEqual(seen, seen.sorted())
    XCTAssertEqual(model.count, total)
  }

  @MainActor
  func test_dispatchOnTheMainThreadWhileAStateIsOnItsWay_showsTheLatestState() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    let changes = trackChanges { _ = model.count }
    let done = AtomicBox<Bool>(false)
    Thread {
      store.dispatch(StoreCounterAction.add(2))
      done.store(true, ordering: .releasing)
    }.start()
    XCTAssertTrue(waitUntil { done.load(ordering: .acquiring) })
    // when: the main queue has not applied the first state yet
    store.dispatch(StoreCounterAction.add(3))
    let shownAtOnce = model.count
    await mainQueueTurn()
    // then: applied before `dispatch` returned, skipping the state still on its way
    XCTAssertEqual(shownAtOnce, 5)
    XCTAssertEqual(model.count, 5)
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(changes.offMainCount, 0)
    // when: the main thread is idle again
    store.dispatch(StoreCounterAction.increment)
    // then: applied before `dispatch` returned
    XCTAssertEqual(model.count, 6)
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
  @MainActor
  func test_stateArrivingAfterTheModelWasReleased_isDropped() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    weak var weakModel: ObservedStore<StoreCounterState>?
    var changes: ChangeRecorder?
    do {
      let model = ObservedStore(store)
      weakModel = model
      changes = trackChanges { _ = model.count }
      // when: a state hop is queued, then the model goes away
      let done = AtomicBox<Bool>(false)
      Thread {
        store.dispatch(StoreCounterAction.increment)
        done.store(true, ordering: .releasing)
      }.start()
      XCTAssertTrue(waitUntil { done.load(ordering: .acquiring) })
    }
    await mainQueueTurn()
    // then
    XCTAssertNil(weakModel)
    XCTAssertEqual(changes?.count, 0)
    XCTAssertEqual(store.currentState.count, 1)
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

/// Actions of ``gridReducer``.
private enum GridAction: Action {
  case setCell(Int, Int)
  case setAll(Int)
  case setTitle(String)
  case setHeaderAndCells(title: String, subtitle: String, cell: Int)
}

/// A state with many properties: cells reached through subscripts, a nested struct and a
/// computed property.
private struct GridState {
  static let size = 12

  struct Header: Equatable {
    var title = ""
    var subtitle = ""
  }

  var header = Header()
  var cells = Array(repeating: 0, count: size)

  var total: Int { cells.reduce(0, +) }
}

private var gridReducer: Reducer<GridState> {
  Reducer { state, action in
    switch action {
    case GridAction.setCell(let index, let value): state.cells[index] = value
    case GridAction.setAll(let value):
      state.cells = Array(repeating: value, count: GridState.size)
    case GridAction.setTitle(let title): state.header.title = title
    case GridAction.setHeaderAndCells(let title, let subtitle, let cell):
      state.header = GridState.Header(title: title, subtitle: subtitle)
      state.cells = Array(repeating: cell, count: GridState.size)
    default: break
    }
  }
}
