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

  // MARK: - A reactor's bug report (issue 32, parts 1 and 2)

  func test_aRecordedEditorSession_replaysMutationByMutation_andATamperedOneFails() throws {
    // given: an editor recorded while the user types, submits an empty title, then a real one
    let provider = ServiceProvider()
    let editor = TodoEditorReactor(provider: provider, mode: .add)
    let flight = ReactorFlightRecorder(recording: editor)
    editor.action.onNext(.updateTitle(" "))
    editor.action.onNext(.submit)
    editor.action.onNext(.updateTitle("Milk"))
    editor.action.onNext(.submit)
    let report = try flight.exportData()
    // when
    let recording = try ReactorRecording<TodoEditorReactor>(jsonLines: Array(report))
    let replay = ReactorTestStore(
      reactor: TodoEditorReactor(provider: ServiceProvider(), mode: .add))
    var failures: [String] = []
    replay.reportFailure = { failures.append($0.message) }
    replay.replay(recording)
    // then
    XCTAssertEqual(
      recording.mutations,
      [.setTitle(" "), .setValidationMessage("A todo needs a title."), .setTitle("Milk"), .dismiss])
    XCTAssertEqual(failures, [])
    // when: the report says the second mutation led to another state
    var tampered = recording
    if case .mutation(let mutation, let checkpoint?) = tampered.events[3] {
      tampered.events[3] = .mutation(
        mutation, checkpoint: StateCheckpoint(hash: "0000000000000000", changed: checkpoint.changed)
      )
    }
    replay.replay(tampered)
    replay.finish()
    // then
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.hasPrefix(
        "Replaying mutation 2 of 4, Mutation.setValidationMessage(\"A todo needs a title.\") "
          + "(after action TodoEditorReactor.Action.submit)") ?? false, "\(failures)")
  }
}
