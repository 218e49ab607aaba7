import ReactorKit
import TodosKit
import XCTest

final class AppReducerTests: XCTestCase {
  func test_todosReducer_addsWithFreshIdentifiers() {
    // given
    var state = AppState()
    // when
    reduce(&state, TodoAction.add(title: "Buy milk"), TodoAction.add(title: "Call mom"))
    reduce(&state, TodoAction.delete(id: 2), TodoAction.add(title: "Walk"))
    // then
    XCTAssertEqual(state.todos.items, [Todo(id: 1, title: "Buy milk"), Todo(id: 3, title: "Walk")])
    XCTAssertEqual(state.todos.nextID, 4)
  }

  func test_todosReducer_togglesEditsAndDeletesDone() {
    // given
    var state = AppState(
      todos: TodosState(items: [Todo(id: 1, title: "a"), Todo(id: 2, title: "b")], nextID: 3))
    // when
    reduce(&state, TodoAction.toggle(id: 1), TodoAction.edit(id: 2, title: "B"))
    let afterEdit = state.todos.items
    reduce(&state, TodoAction.deleteDone)
    // then
    XCTAssertEqual(afterEdit, [Todo(id: 1, title: "a", isDone: true), Todo(id: 2, title: "B")])
    XCTAssertEqual(state.todos.items, [Todo(id: 2, title: "B")])
  }

  func test_todosReducer_unknownIdentifiersChangeNothing() {
    // given
    let start = AppState(todos: TodosState(items: [Todo(id: 1, title: "a")], nextID: 2))
    var state = start
    // when
    reduce(&state, TodoAction.toggle(id: 9), TodoAction.edit(id: 9, title: "x"))
    reduce(&state, TodoAction.delete(id: 9))
    // then
    XCTAssertEqual(state, start)
  }

  func test_appReducer_routesEachFeaturesActionsToItsField() {
    // given
    var state = AppState()
    // when
    reduce(&state, SessionAction.logIn(User(name: "alice")))
    let afterLogIn = state
    reduce(&state, SettingsAction.setFilter(.done), UnrelatedAction())
    let afterFilter = state
    reduce(&state, SessionAction.logOut)
    // then
    XCTAssertEqual(afterLogIn, AppState(session: SessionState(user: User(name: "alice"))))
    XCTAssertEqual(afterFilter.settings.filter, .done)
    XCTAssertEqual(afterFilter.todos, TodosState())
    XCTAssertNil(state.session.user)
  }

  func test_appState_roundTripsThroughJSON() throws {
    // given
    var state = AppState()
    reduce(&state, TodoAction.add(title: "Buy milk"), SessionAction.logIn(User(name: "bob")))
    // when
    let decoded = try JSONDecoder().decode(AppState.self, from: JSONEncoder().encode(state))
    // then
    XCTAssertEqual(decoded, state)
  }

  func test_filter_includesAndCycles() {
    let open = Todo(id: 1, title: "a")
    let done = Todo(id: 2, title: "b", isDone: true)
    XCTAssertEqual([open, done].filter(TodoFilter.active.includes), [open])
    XCTAssertEqual([open, done].filter(TodoFilter.done.includes), [done])
    XCTAssertEqual([open, done].filter(TodoFilter.all.includes), [open, done])
    XCTAssertEqual([TodoFilter.all.next, .active.next, .done.next], [.active, .done, .all])
  }

  private func reduce(_ state: inout AppState, _ actions: any StoreAction...) {
    for action in actions { AppState.reducer.reduce(&state, action) }
  }
}

private struct UnrelatedAction: StoreAction {}
