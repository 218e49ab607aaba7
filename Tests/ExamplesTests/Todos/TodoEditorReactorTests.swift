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
}
