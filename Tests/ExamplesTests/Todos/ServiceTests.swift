import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

/// The services validate, then dispatch exactly one action to the store reached through
/// their provider; the test store asserts each dispatched action and its state change.
final class ServiceTests: ResourceTestCase {
  func test_todoService_dispatchesValidatedActions() throws {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let store = TestStore(store: provider.store)
    let service = provider.todoService
    // when / then
    let added = try service.add(title: "  tea ").toBlocking().first()
    store.receive(TodoAction.add(title: "tea")) {
      $0.todos.items.append(Todo(id: 4, title: "tea"))
      $0.todos.nextID = 5
    }
    XCTAssertEqual(added, Todo(id: 4, title: "tea"))
    let toggled = try service.toggle(id: 4).toBlocking().first()
    store.receive(TodoAction.toggle(id: 4)) { $0.todos.items[3].isDone = true }
    XCTAssertEqual(toggled?.isDone, true)
    _ = try service.edit(id: 1, title: "brown eggs").toBlocking().first()
    store.receive(TodoAction.edit(id: 1, title: "brown eggs")) {
      $0.todos.items[0].title = "brown eggs"
    }
    let deleted = try service.delete(id: 3).toBlocking().first()
    store.receive(TodoAction.delete(id: 3)) { $0.todos.items.remove(at: 2) }
    XCTAssertEqual(deleted?.title, "milk")
    let count = try service.deleteDone().toBlocking().first()
    store.receive(TodoAction.deleteDone) { $0.todos.items = [Todo(id: 1, title: "brown eggs")] }
    XCTAssertEqual(count, 2)
    let none = try service.deleteDone().toBlocking().first()
    XCTAssertEqual(none, 0)
    store.finish()
  }

  func test_todoService_rejectsBadInputWithoutDispatching() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let store = TestStore(store: provider.store)
    let service = provider.todoService
    // then
    XCTAssertEqual(failure(of: service.add(title: " ")), .emptyTitle)
    XCTAssertEqual(failure(of: service.edit(id: 1, title: "")), .emptyTitle)
    XCTAssertEqual(failure(of: service.edit(id: 7, title: "x")), .notFound(id: 7))
    XCTAssertEqual(failure(of: service.toggle(id: 7)), .notFound(id: 7))
    XCTAssertEqual(failure(of: service.delete(id: 7)), .notFound(id: 7))
    XCTAssertEqual(
      failure(of: service.add(title: String(repeating: "x", count: 81))), .titleTooLong(limit: 80))
    store.finish()
  }

  func test_userAndSettingsServices_dispatchToTheirFeatures() throws {
    // given
    let provider = ServiceProvider()
    let store = TestStore(store: provider.store)
    // when / then
    let user = try provider.userService.logIn(name: "ada").toBlocking().first()
    store.receive(SessionAction.logIn(User(name: "ada"))) { $0.session.user = User(name: "ada") }
    XCTAssertEqual(user, User(name: "ada"))
    _ = try provider.settingsService.setFilter(.active).toBlocking().first()
    store.receive(SettingsAction.setFilter(.active)) { $0.settings.filter = .active }
    let previous = try provider.userService.logOut().toBlocking().first()
    store.receive(SessionAction.logOut) { $0.session.user = nil }
    XCTAssertEqual(previous, User(name: "ada"))
    _ = try provider.userService.logOut().toBlocking().first()
    store.finish()
  }

  func test_serviceProvider_holdsOneInstanceOfEachService() {
    // given
    let provider = ServiceProvider()
    // then
    XCTAssertTrue(provider.todoService === provider.todoService)
    XCTAssertTrue((provider.todoService as? Service)?.provider === provider)
    XCTAssertTrue((provider.userService as? Service)?.provider === provider)
    XCTAssertTrue((provider.settingsService as? Service)?.provider === provider)
  }

  private func failure<Element>(of observable: Observable<Element>) -> TodoError? {
    guard case .failed(_, let error) = observable.toBlocking().materialize() else { return nil }
    return error as? TodoError
  }
}
