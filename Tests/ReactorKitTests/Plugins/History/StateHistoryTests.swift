import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class StateHistoryTests: ResourceTestCase {
  private func makeStore(history: StateHistory<DemoState>) -> Store<DemoState> {
    Store(reducer: DemoState.reducer, state: DemoState(), plugins: [history])
  }

  private func titles(_ state: DemoState) -> [String] { state.todos.map(\.title) }

  func test_history_stepsBackAndForward_andTheStoreEmitsRestoredStates() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    var emitted: [[String]] = []
    let subscription = store.state.subscribe(onNext: { emitted.append($0.todos.map(\.title)) })
    store.dispatch(DemoAction.add("a"))
    store.dispatch(DemoAction.add("b"))
    // when
    history.stepBack()
    history.stepBack()
    history.stepForward()
    // then
    XCTAssertEqual(emitted, [[], ["a"], ["a", "b"], ["a"], [], ["a"]])
    XCTAssertEqual(history.count, 3)
    XCTAssertEqual(history.currentIndex, 1)
    XCTAssertTrue(history.canStepBack)
    XCTAssertTrue(history.canStepForward)
    subscription.dispose()
  }

  func test_history_jump_restoresTheEntryAtTheIndex() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    for title in ["a", "b", "c"] { store.dispatch(DemoAction.add(title)) }
    // when
    history.jump(to: 1)
    let atOne = titles(store.currentState)
    history.jump(to: 3)
    let atThree = titles(store.currentState)
    history.jump(to: 9)
    // then
    XCTAssertEqual(atOne, ["a"])
    XCTAssertEqual(atThree, ["a", "b", "c"])
    XCTAssertEqual(titles(store.currentState), ["a", "b", "c"], "out of range is ignored")
    XCTAssertEqual(history.states.map(titles), [[], ["a"], ["a", "b"], ["a", "b", "c"]])
  }

  func test_history_stepsStopAtBothEnds() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    store.dispatch(DemoAction.add("a"))
    // when
    history.stepBack(5)
    let atStart = (titles(store.currentState), history.canStepBack)
    history.stepForward(5)
    // then
    XCTAssertEqual(atStart.0, [])
    XCTAssertFalse(atStart.1)
    XCTAssertEqual(titles(store.currentState), ["a"])
    XCTAssertFalse(history.canStepForward)
  }

  func test_history_extremeCounts_clampToTheEnds_andNonPositiveCountsMoveNothing() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    for title in ["a", "b", "c"] { store.dispatch(DemoAction.add(title)) }
    history.jump(to: 1)
    // when / then: huge counts stop at the ends (Int.max used to overflow and stop the program)
    history.stepForward(Int.max)
    XCTAssertEqual(history.currentIndex, 3)
    history.stepBack(Int.max)
    XCTAssertEqual(history.currentIndex, 0)
    history.stepForward(.max - 1)
    XCTAssertEqual(history.currentIndex, 3)
    // zero and negative counts do not move (in either direction)
    history.jump(to: 1)
    for steps in [0, -1, Int.min] {
      history.stepForward(steps)
      history.stepBack(steps)
    }
    XCTAssertEqual(history.currentIndex, 1)
    XCTAssertEqual(titles(store.currentState), ["a"])
    history.jump(to: .min)
    history.jump(to: .max)
    XCTAssertEqual(history.currentIndex, 1, "out-of-range jumps are ignored")
  }

  func test_history_extremeCountsFromARecordingFile_replayWithoutStoppingTheProgram() throws {
    // given: the hostile line from issue 30, and its siblings, after a valid header
    var registry = DemoState.registry
    registry.register(HistoryAction.self)
    let valid = try ActionRecording([DemoAction.logOut]).jsonLines(registry: registry)
    var lines = String(decoding: valid, as: UTF8.self)
    if !lines.hasSuffix("\n") { lines += "\n" }
    for (command, count) in [
      ("stepForward", Int.max), ("stepBack", Int.min), ("stepBack", Int.max),
      ("stepForward", Int.min), ("stepForward", -1), ("jump", Int.min),
    ] {
      let argument = command == "jump" ? #"{"to":\#(count)}"# : #"{"_0":\#(count)}"#
      lines +=
        #"{"action":{"command":{"\#(command)":\#(argument)},"history":"history"},"#
        + #""type":"HistoryAction"}"# + "\n"
    }
    let recording = try ActionRecording(jsonLines: Array(lines.utf8), registry: registry)
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    store.dispatch(DemoAction.add("a"))
    store.dispatch(DemoAction.add("b"))
    // when
    try recording.replay(into: store)
    // then: Int.max forward stays at the newest; the rest move back to the oldest or not at all
    XCTAssertEqual(recording.actions.count, 7)
    XCTAssertEqual(history.currentIndex, 0)
    XCTAssertEqual(titles(store.currentState), [])
  }

  func test_history_newChangeAfterSteppingBack_discardsTheEntriesAhead() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    for title in ["a", "b", "c"] { store.dispatch(DemoAction.add(title)) }
    history.stepBack(2)
    // when
    store.dispatch(DemoAction.add("x"))
    // then
    XCTAssertEqual(history.states.map(titles), [[], ["a"], ["a", "x"]])
    XCTAssertFalse(history.canStepForward)
    history.stepForward()
    XCTAssertEqual(titles(store.currentState), ["a", "x"])
  }

  func test_history_isBounded_droppingTheOldestEntries() {
    // given
    let history = StateHistory<DemoState>(capacity: 3)
    let store = makeStore(history: history)
    // when
    for title in ["a", "b", "c", "d"] { store.dispatch(DemoAction.add(title)) }
    // then
    XCTAssertEqual(history.count, 3)
    XCTAssertEqual(history.states.map(\.todos.count), [2, 3, 4])
    history.jump(to: 0)
    XCTAssertEqual(titles(store.currentState), ["a", "b"])
    history.stepBack()
    XCTAssertEqual(titles(store.currentState), ["a", "b"], "older entries are gone")
  }

  func test_history_actionsThatChangeNothing_recordNothing() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    store.dispatch(DemoAction.add("a"))
    // when
    store.dispatch(DemoAction.toggle(id: 42))
    store.dispatch(DemoUnregistered())
    // then
    XCTAssertEqual(history.count, 2)
  }

  func test_history_scopedToOneFeature_undoesOnlyThatFeature() {
    // given
    let history = StateHistory<[DemoTodo]>(name: "todos")
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [history.scoped(to: \.todos)])
    store.dispatch(DemoAction.add("a"))
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    store.dispatch(DemoAction.add("b"))
    // when
    history.stepBack()
    // then
    XCTAssertEqual(titles(store.currentState), ["a"])
    XCTAssertEqual(
      store.currentState.account?.name, "ann", "the session is not part of the history")
    XCTAssertEqual(history.count, 3)
  }

  func test_history_scopedTwiceInOneStore_eachUndoesItsOwnPart() {
    // given
    let todos = StateHistory<[DemoTodo]>(name: "todos")
    let account = StateHistory<DemoAccount?>(name: "account", isDuplicate: { $0 == $1 })
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(),
      plugins: [todos.scoped(to: \.todos), account.scoped(to: \.account)])
    store.dispatch(DemoAction.add("a"))
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    // when
    todos.stepBack()
    let afterTodos = (titles(store.currentState), store.currentState.account?.name)
    account.stepBack()
    // then
    XCTAssertEqual(afterTodos.0, [])
    XCTAssertEqual(afterTodos.1, "ann")
    XCTAssertEqual(titles(store.currentState), [])
    XCTAssertNil(store.currentState.account)
  }

  func test_history_ignoresNavigationForOtherHistories() {
    // given
    let history = StateHistory<DemoState>(name: "main")
    let store = makeStore(history: history)
    store.dispatch(DemoAction.add("a"))
    // when
    store.dispatch(HistoryAction(history: "other", command: .stepBack(1)))
    let afterOther = titles(store.currentState)
    store.dispatch(history.action(.stepBack(1)))
    // then
    XCTAssertEqual(afterOther, ["a"])
    XCTAssertEqual(titles(store.currentState), [])
  }

  @available(*, deprecated)
  func test_history_deprecatedTwoStepWiring_stillWorks() {
    // given
    let history = StateHistory<DemoState>()
    let store = Store(
      reducer: history.reducer(DemoState.reducer), state: DemoState(),
      middleware: [history.middleware()])
    store.dispatch(DemoAction.add("a"))
    // when
    history.stepBack()
    // then
    XCTAssertEqual(titles(store.currentState), [])
    XCTAssertTrue(history.canStepForward)
  }

  func test_history_outlivesItsStore_navigationDoesNothing() {
    // given
    let history = StateHistory<DemoState>()
    var store: Store<DemoState>? = makeStore(history: history)
    store?.dispatch(DemoAction.add("a"))
    weak let released = store
    // when
    store = nil
    history.stepBack()
    // then
    XCTAssertNil(released)
    XCTAssertTrue(history.canStepBack, "nothing moved: there is no store to restore into")
  }

  func test_history_undoRedoFromAReactor_throughDispatchEffect() {
    // given
    let history = StateHistory<DemoState>()
    let store = makeStore(history: history)
    let reactor = UndoReactor(store: store, history: history)
    store.dispatch(DemoAction.add("a"))
    store.dispatch(DemoAction.add("b"))
    // when
    reactor.action.onNext(.undo)
    let afterUndo = (titles(store.currentState), reactor.currentState)
    reactor.action.onNext(.redo)
    // then
    XCTAssertEqual(afterUndo.0, ["a"])
    XCTAssertEqual(afterUndo.1, UndoReactor.State(count: 1, canUndo: true, canRedo: true))
    XCTAssertEqual(titles(store.currentState), ["a", "b"])
    XCTAssertEqual(reactor.currentState, UndoReactor.State(count: 2, canUndo: true, canRedo: false))
  }
}

extension DemoAction {
  var isSession: Bool {
    switch self {
    case .logIn, .logOut: return true
    default: return false
    }
  }
}

/// The undo/redo buttons of a todo screen: a reactor that navigates a store's history and
/// mirrors the todo count and what is possible.
private final class UndoReactor: Reactor {
  enum Action { case undo, redo }
  enum Mutation { case setCount(Int) }
  struct State: Equatable {
    var count = 0
    var canUndo = false
    var canRedo = false
  }

  let initialState = State()
  private let store: Store<DemoState>
  private let history: StateHistory<DemoState>

  init(store: Store<DemoState>, history: StateHistory<DemoState>) {
    self.store = store
    self.history = history
  }

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .undo: return store.dispatchEffect(history.action(.stepBack(1)))
    case .redo: return store.dispatchEffect(history.action(.stepForward(1)))
    }
  }

  func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    .merge(mutation, store.slice(\.todos.count, as: Mutation.setCount))
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setCount(let count): state.count = count
    }
    state.canUndo = history.canStepBack
    state.canRedo = history.canStepForward
    return state
  }
}
