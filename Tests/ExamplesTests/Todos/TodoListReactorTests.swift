import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

final class TodoListReactorTests: ResourceTestCase {
  func test_state_followsTheStoreSlices() {
    // given
    let provider = ServiceProvider()
    let reactor = TodoListReactor(provider: provider)
    var titles: [[String]] = []
    let subscription = reactor.state.subscribe(onNext: {
      titles.append($0.visibleTodos.map(\.title))
    })
    // when
    provider.store.dispatch(TodoAction.add(title: "a"))
    provider.store.dispatch(TodoAction.add(title: "b"))
    provider.store.dispatch(TodoAction.toggle(id: 1))
    provider.store.dispatch(SettingsAction.setFilter(.active))
    // then
    XCTAssertEqual(titles.first, [])
    XCTAssertEqual(titles.last, ["b"])
    XCTAssertEqual(reactor.currentState.filter, .active)
    subscription.dispose()
  }

  func test_toggle_usesTheRowOfTheFilteredList() {
    // given
    let provider = ServiceProvider(state: Self.state(filter: .active))
    let reactor = TodoListReactor(provider: provider)
    // when
    reactor.action.onNext(.toggle(row: 1))
    // then
    XCTAssertEqual(provider.store.currentState.todos.items.map(\.isDone), [false, true, true])
    XCTAssertEqual(reactor.currentState.visibleTodos.map(\.title), ["eggs"])
  }

  func test_deleteAndToggle_ofAMissingRow_raiseAnAlert() {
    // given
    let provider = ServiceProvider(state: Self.state())
    let reactor = TodoListReactor(provider: provider)
    var alerts: [String] = []
    let subscription = reactor.pulse(\.$alertMessage).compactMap { $0 }
      .subscribe(onNext: { alerts.append($0) })
    // when
    reactor.action.onNext(.delete(row: 3))
    reactor.action.onNext(.toggle(row: -1))
    // then
    XCTAssertEqual(
      alerts, ["There is no todo #4 in this list.", "There is no todo #0 in this list."])
    XCTAssertEqual(provider.store.currentState, Self.state())
    subscription.dispose()
  }

  func test_cycleFilter_changesTheStoresSettings() {
    // given
    let provider = ServiceProvider(state: Self.state())
    let reactor = TodoListReactor(provider: provider)
    // when
    reactor.action.onNext(.cycleFilter)
    reactor.action.onNext(.cycleFilter)
    // then
    XCTAssertEqual(provider.store.currentState.settings.filter, .done)
    XCTAssertEqual(reactor.currentState.visibleTodos.map(\.title), ["bread"])
  }

  func test_moveSelection_staysWithinTheVisibleRows() {
    // given
    let provider = ServiceProvider(state: Self.state())
    let reactor = TodoListReactor(provider: provider)
    // when
    reactor.action.onNext(.moveSelection(by: 5))
    let bottom = reactor.currentState.selectedRow
    reactor.action.onNext(.setFilter(.done))
    let afterFilter = reactor.currentState.selectedRow
    reactor.action.onNext(.moveSelection(by: -3))
    // then
    XCTAssertEqual(bottom, 2)
    XCTAssertEqual(afterFilter, 0)
    XCTAssertEqual(reactor.currentState.selectedRow, 0)
  }

  func test_deleteDone_reportsHowManyWentAway() {
    // given
    let provider = ServiceProvider(state: Self.state())
    let reactor = TodoListReactor(provider: provider)
    // when
    reactor.action.onNext(.deleteDone)
    // then
    XCTAssertEqual(reactor.currentState.alertMessage, "Deleted 1 done todo.")
    XCTAssertEqual(provider.store.currentState.todos.items.map(\.title), ["eggs", "milk"])
  }

  func test_reactorAndProvider_areFreedTogether() {
    // given
    var provider: ServiceProvider? = ServiceProvider(state: Self.state())
    var reactor: TodoListReactor? = TodoListReactor(provider: provider!)
    weak let weakProvider = provider
    weak let weakReactor = reactor
    let subscription = reactor!.state.subscribe()
    reactor!.action.onNext(.toggle(row: 0))
    // when
    subscription.dispose()
    reactor = nil
    provider = nil
    // then
    XCTAssertNil(weakReactor)
    XCTAssertNil(weakProvider)
  }

  /// eggs (active), bread (done), milk (active).
  static func state(filter: TodoFilter = .all) -> AppState {
    AppState(
      settings: SettingsState(filter: filter),
      todos: TodosState(
        items: [
          Todo(id: 1, title: "eggs"), Todo(id: 2, title: "bread", isDone: true),
          Todo(id: 3, title: "milk"),
        ], nextID: 4))
  }
}
