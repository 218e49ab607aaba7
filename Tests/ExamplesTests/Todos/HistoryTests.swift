import ExampleSupport
import Foundation
import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

/// Undo and redo: time travel through the todos' history, dispatched to the store.
final class HistoryTests: ResourceTestCase {
  func test_historyService_undoAndRedoDispatchHistoryActions() throws {
    // given
    let provider = ServiceProvider()
    let service = provider.historyService
    provider.store.dispatch(TodoAction.add(title: "a"))
    provider.store.dispatch(SessionAction.logIn(User(name: "bo")))
    provider.store.dispatch(TodoAction.toggle(id: 1))
    let store = TestStore(store: provider.store)
    let counts = (service.undoCount, service.redoCount)
    // when / then
    XCTAssertEqual(try service.undo().toBlocking().first(), true)
    store.receive(HistoryAction(history: "todos", command: .stepBack(1))) {
      $0.todos.items[0].isDone = false
    }
    XCTAssertEqual(try service.undo().toBlocking().first(), true)
    store.receive(HistoryAction(history: "todos", command: .stepBack(1))) {
      $0.todos = TodosState()
    }
    XCTAssertEqual(try service.undo().toBlocking().first(), false)
    XCTAssertEqual(try service.redo().toBlocking().first(), true)
    store.receive(HistoryAction(history: "todos", command: .stepForward(1))) {
      $0.todos = TodosState(items: [Todo(id: 1, title: "a")], nextID: 2)
    }
    XCTAssertEqual(counts.0, 2, "Logging in is not part of the todos' history.")
    XCTAssertEqual(counts.1, 0)
    XCTAssertEqual(service.undoCount, 1)
    XCTAssertEqual(service.redoCount, 1)
    XCTAssertEqual(provider.store.currentState.session.user, User(name: "bo"))
    store.finish()
  }

  func test_newChangeAfterUndo_dropsTheRedo() throws {
    // given
    let provider = ServiceProvider()
    provider.store.dispatch(TodoAction.add(title: "a"))
    provider.store.dispatch(TodoAction.add(title: "b"))
    _ = try provider.historyService.undo().toBlocking().first()
    // when
    provider.store.dispatch(TodoAction.add(title: "c"))
    // then
    XCTAssertEqual(try provider.historyService.redo().toBlocking().first(), false)
    XCTAssertEqual(provider.store.currentState.todos.items.map(\.title), ["a", "c"])
    XCTAssertEqual(provider.store.currentState.todos.items.map(\.id), [1, 2])
  }

  func test_historyCapacity_boundsTheUndoSteps() throws {
    // given
    let provider = ServiceProvider(historyCapacity: 3)
    for title in ["a", "b", "c", "d"] { provider.store.dispatch(TodoAction.add(title: title)) }
    // when
    var undone = 0
    while try provider.historyService.undo().toBlocking().first() == true { undone += 1 }
    // then
    XCTAssertEqual(undone, 2)
    XCTAssertEqual(provider.store.currentState.todos.items.map(\.title), ["a", "b"])
  }

  func test_listReactor_undoAndRedoFollowTheStore() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let reactor = TodoListReactor(provider: provider)
    var alerts: [String] = []
    let subscription = reactor.pulse(\.$alertMessage).compactMap { $0 }
      .subscribe(onNext: { alerts.append($0) })
    // when
    reactor.action.onNext(.undo)
    reactor.action.onNext(.delete(row: 0))
    let afterDelete = reactor.currentState.visibleTodos.map(\.title)
    reactor.action.onNext(.undo)
    let afterUndo = reactor.currentState.visibleTodos.map(\.title)
    reactor.action.onNext(.redo)
    reactor.action.onNext(.redo)
    // then
    XCTAssertEqual(afterDelete, ["bread", "milk"])
    XCTAssertEqual(afterUndo, ["eggs", "bread", "milk"])
    XCTAssertEqual(reactor.currentState.visibleTodos.map(\.title), ["bread", "milk"])
    XCTAssertEqual(alerts, ["Nothing to undo.", "Nothing to redo."])
    subscription.dispose()
  }

  func test_editor_closesWhenUndoRemovesItsTodo() {
    // given
    let provider = ServiceProvider()
    provider.store.dispatch(TodoAction.add(title: "draft"))
    let todo = provider.store.currentState.todos.items[0]
    let editor = TodoEditorReactor(provider: provider, mode: .edit(todo))
    let binding = editor.state.subscribe()  // as its view would
    let list = TodoListReactor(provider: provider)
    // when
    list.action.onNext(.undo)
    // then
    XCTAssertTrue(editor.currentState.isDismissed)
    binding.dispose()
  }
}

/// The composition root's shape: the app's plugins go to the provider in one list, after the
/// history it installs itself; reactors get theirs from the screen.
final class CompositionTests: ResourceTestCase {
  func test_provider_installsTheAppPlugins_andFlushPluginsSavesTheState() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    let persistence = StatePersistence<AppState>(url: directory.appendingPathComponent("s.json"))
    let restored = try persistence.restore(initialState: AppState())
    let lines = LockedLines()
    let logger = LoggingPlugin(sink: .lines { line in lines.append(line) })
    let provider = ServiceProvider(
      state: restored.state, plugins: [logger.forStore(), persistence, Inspectorless.none])
    // when
    provider.store.dispatch(TodoAction.add(title: "a"))
    _ = try provider.historyService.undo().toBlocking().first()
    try provider.store.flushPlugins()
    // then: the undo went through the scoped history, the logger saw both, the file has it
    XCTAssertEqual(provider.store.currentState.todos, TodosState())
    XCTAssertEqual(lines.count(containing: "[store] action"), 2)
    let saved = StatePersistence<AppState>(url: persistence.url)
    XCTAssertEqual(try saved.restore(initialState: AppState()).state, provider.store.currentState)
  }

  func test_screen_installsItsReactorPluginsOnEveryReactor() {
    // given
    let lines = LockedLines()
    let logger = LoggingPlugin(sink: .lines { line in lines.append(line) })
    let absent: LoggingPlugin? = nil
    // when
    let screen = TodosScreen(provider: ServiceProvider(), reactorPlugins: [logger, absent])
    XCTAssertEqual(screen.perform(ScriptCommand("add Milk")!), .continue)
    logger.flush()
    // then: the list reactor logged its action, and the others their states
    XCTAssertGreaterThan(lines.count(containing: "[TodoListReactor]"), 0)
    XCTAssertGreaterThan(lines.count(containing: "[StatsReactor]"), 0)
  }
}

/// A plugin type that is absent (`nil`) in these tests.
private typealias Inspectorless = LoggingPlugin.ForStore<AppState>?

private final class LockedLines: @unchecked Sendable {
  // Safety: `lines` is guarded by `lock`.
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ line: String) { lock.withLock { lines.append(line) } }

  func count(containing text: String) -> Int {
    lock.withLock { lines.filter { $0.contains(text) }.count }
  }
}
