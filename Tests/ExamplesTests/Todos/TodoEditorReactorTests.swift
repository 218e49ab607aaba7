import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

final class TodoEditorReactorTests: ResourceTestCase {
  func test_submit_addsTheTrimmedTitleAndDismisses() {
    // given
    let provider = ServiceProvider()
    let reactor = TodoEditorReactor(provider: provider, mode: .add)
    // when
    reactor.action.onNext(.updateTitle("  Buy milk "))
    reactor.action.onNext(.submit)
    reactor.action.onNext(.submit)
    // then
    XCTAssertTrue(reactor.currentState.isDismissed)
    XCTAssertEqual(provider.store.currentState.todos.items, [Todo(id: 1, title: "Buy milk")])
  }

  func test_submit_rejectsEmptyAndOverlongTitles() {
    // given
    let provider = ServiceProvider()
    let reactor = TodoEditorReactor(provider: provider, mode: .add)
    // when
    reactor.action.onNext(.updateTitle("   "))
    reactor.action.onNext(.submit)
    let empty = reactor.currentState.validationMessage
    reactor.action.onNext(.updateTitle(String(repeating: "x", count: TodoService.titleLimit + 1)))
    let clearedByTyping = reactor.currentState.validationMessage
    reactor.action.onNext(.submit)
    // then
    XCTAssertEqual(empty, "A todo needs a title.")
    XCTAssertNil(clearedByTyping)
    XCTAssertEqual(reactor.currentState.validationMessage, "Titles are at most 80 characters long.")
    XCTAssertFalse(reactor.currentState.isDismissed)
    XCTAssertEqual(provider.store.currentState.todos.items, [])
  }

  func test_edit_startsWithTheTitleAndRenames() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let todo = provider.store.currentState.todos.items[1]
    let reactor = TodoEditorReactor(provider: provider, mode: .edit(todo))
    let initialTitle = reactor.currentState.title
    // when
    reactor.action.onNext(.updateTitle("rye bread"))
    reactor.action.onNext(.submit)
    // then
    XCTAssertEqual(initialTitle, "bread")
    XCTAssertEqual(
      provider.store.currentState.todos.items[1], Todo(id: 2, title: "rye bread", isDone: true))
    XCTAssertTrue(reactor.currentState.isDismissed)
  }

  func test_edit_closesWhenTheTodoDisappears() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let todo = provider.store.currentState.todos.items[0]
    let reactor = TodoEditorReactor(provider: provider, mode: .edit(todo))
    reactor.action.onNext(.updateTitle("brown eggs"))
    // when
    provider.store.dispatch(TodoAction.delete(id: todo.id))
    reactor.action.onNext(.submit)
    // then
    XCTAssertTrue(reactor.currentState.isDismissed)
    XCTAssertFalse(provider.store.currentState.todos.items.contains { $0.title == "brown eggs" })
  }

  func test_cancel_dismissesWithoutSaving() {
    // given
    let provider = ServiceProvider()
    let reactor = TodoEditorReactor(provider: provider, mode: .add)
    // when
    reactor.action.onNext(.updateTitle("Buy milk"))
    reactor.action.onNext(.cancel)
    reactor.action.onNext(.submit)
    // then
    XCTAssertTrue(reactor.currentState.isDismissed)
    XCTAssertEqual(provider.store.currentState.todos.items, [])
  }

  // MARK: - Exhaustively, with ReactorTestStore (issue 32, part 3)

  func test_exhaustively_anEmptyTitleIsRejected_thenTypingClearsTheMessage() {
    let store = ReactorTestStore(
      reactor: TodoEditorReactor(provider: ServiceProvider(), mode: .add))
    store.send(.updateTitle("   "))
    store.receive(.setTitle("   ")) { $0.title = "   " }
    store.send(.submit)
    store.receive(.setValidationMessage("A todo needs a title.")) {
      $0.validationMessage = "A todo needs a title."
    }
    store.send(.updateTitle("Milk"))
    store.receive(.setTitle("Milk")) {
      $0.title = "Milk"
      $0.validationMessage = nil
    }
    store.finish()
  }

  func test_exhaustively_deletingTheTodo_dismissesTheEditorThroughTheStoreSlice() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let todo = provider.store.currentState.todos.items[0]
    let store = ReactorTestStore(reactor: TodoEditorReactor(provider: provider, mode: .edit(todo)))
    store.send(.updateTitle("brown eggs"))
    store.receive(.setTitle("brown eggs")) { $0.title = "brown eggs" }
    // when: the global store deletes the todo; `transform(mutation:)` merges in `.dismiss`
    provider.store.dispatch(TodoAction.delete(id: todo.id))
    // then
    store.receive(.dismiss) { $0.isDismissed = true }
    store.send(.submit)  // a dismissed editor ignores actions: no mutation
    store.finish()
  }
}
