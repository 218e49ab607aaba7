import Foundation
import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

final class AppReducerTests: ResourceTestCase {
  func test_todos_addGivesFreshIdentifiersThatAreNeverReused() {
    // given
    let store = TestStore(reducer: AppState.reducer, state: AppState())
    // when / then
    store.send(TodoAction.add(title: "Buy milk")) {
      $0.todos.items = [Todo(id: 1, title: "Buy milk")]
      $0.todos.nextID = 2
    }
    store.send(TodoAction.add(title: "Call mom")) {
      $0.todos.items.append(Todo(id: 2, title: "Call mom"))
      $0.todos.nextID = 3
    }
    store.send(TodoAction.delete(id: 2)) { $0.todos.items.removeLast() }
    store.send(TodoAction.add(title: "Walk")) {
      $0.todos.items.append(Todo(id: 3, title: "Walk"))
      $0.todos.nextID = 4
    }
    store.finish()
  }

  func test_todos_toggleEditAndDeleteDone() {
    // given
    let store = TestStore(reducer: AppState.reducer, state: TodoListReactorTests.state())
    // when / then
    store.send(TodoAction.toggle(id: 1)) { $0.todos.items[0].isDone = true }
    store.send(TodoAction.edit(id: 3, title: "oat milk")) { $0.todos.items[2].title = "oat milk" }
    store.send(TodoAction.deleteDone) { $0.todos.items = [Todo(id: 3, title: "oat milk")] }
    store.finish()
  }

  func test_todos_unknownIdentifiersChangeNothing() {
    // given
    let store = TestStore(reducer: AppState.reducer, state: TodoListReactorTests.state())
    // when / then
    store.send(TodoAction.toggle(id: 9))
    store.send(TodoAction.edit(id: 9, title: "x"))
    store.send(TodoAction.delete(id: 9))
    store.finish()
  }

  func test_appReducer_routesEachFeaturesActionsToItsField() {
    // given
    let store = TestStore(reducer: AppState.reducer, state: AppState())
    // when / then
    store.send(SessionAction.logIn(User(name: "alice"))) { $0.session.user = User(name: "alice") }
    store.send(SettingsAction.setFilter(.done)) { $0.settings.filter = .done }
    store.send(UnrelatedAction())
    store.send(SessionAction.logOut) { $0.session.user = nil }
    store.finish()
  }

  func test_appState_roundTripsThroughJSON() throws {
    // given
    let store = Store(reducer: AppState.reducer, state: AppState())
    store.dispatch(TodoAction.add(title: "Buy milk"))
    store.dispatch(SessionAction.logIn(User(name: "bob")))
    // when
    let data = try JSONEncoder().encode(store.currentState)
    let decoded = try JSONDecoder().decode(AppState.self, from: data)
    // then
    XCTAssertEqual(decoded, store.currentState)
  }

  func test_filter_includesAndCycles() {
    let open = Todo(id: 1, title: "a")
    let done = Todo(id: 2, title: "b", isDone: true)
    XCTAssertEqual([open, done].filter(TodoFilter.active.includes), [open])
    XCTAssertEqual([open, done].filter(TodoFilter.done.includes), [done])
    XCTAssertEqual([open, done].filter(TodoFilter.all.includes), [open, done])
    XCTAssertEqual([TodoFilter.all.next, .active.next, .done.next], [.active, .done, .all])
  }
}

private struct UnrelatedAction: StoreAction {}
