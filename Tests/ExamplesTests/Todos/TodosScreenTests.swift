import ExampleSupport
import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

final class TodosScreenTests: ResourceTestCase {
  func test_perform_commandsEditTheListThroughTheStore() {
    // given
    let provider = ServiceProvider()
    let screen = TodosScreen(provider: provider)
    // when
    run(screen, "add Buy milk", "add Call mom", "add Walk the dog", "toggle 2", "edit 3 Walk Rex")
    run(screen, "delete 1", "login alice")
    // then
    XCTAssertEqual(
      screen.render(.script),
      [
        "Todos · signed in as alice",
        "filter: [all] active done",
        "  1. [x] Call mom",
        "  2. [ ] Walk Rex",
        "2 todos · 1 done · 1 active · 50% done",
      ])
    XCTAssertEqual(provider.store.currentState.todos.nextID, 4)
  }

  func test_perform_filterAndClear() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let screen = TodosScreen(provider: provider)
    // when
    run(screen, "filter active")
    let active = screen.render(.script)
    run(screen, "filter done", "clear")
    let cleared = screen.render(.script)
    // then
    XCTAssertEqual(active[1...3], ["filter: all [active] done", "  1. [ ] eggs", "  2. [ ] milk"])
    XCTAssertEqual(
      cleared[1...],
      [
        "filter: all active [done]", "  (no done todos)", "2 todos · 0 done · 2 active · 0% done",
        "Deleted 1 done todo.",
      ])
  }

  func test_undoAndRedo_byCommandAndKey() {
    // given
    let provider = ServiceProvider()
    let screen = TodosScreen(provider: provider, notice: "Welcome back.")
    let first = screen.render(.script)
    // when
    run(screen, "add a", "add b", "undo")
    let afterUndo = screen.render(.script)
    press(screen, .character("u"), .character("r"))
    let interactive = screen.render(.terminal(TerminalSize(columns: 80, rows: 24)))
    // then
    XCTAssertEqual(first.last, "Welcome back.")
    XCTAssertEqual(afterUndo[2...3], ["  1. [ ] a", "1 todo · 0 done · 1 active · 0% done"])
    XCTAssertEqual(provider.store.currentState.todos.items.map(\.title), ["a"])
    XCTAssertTrue(interactive.contains { $0.contains("undo: 1 · redo: 1") })
  }

  func test_perform_mistakesAreExplained() {
    // given
    let screen = TodosScreen(provider: ServiceProvider())
    // then
    XCTAssertEqual(lastLine(screen, "add   "), "A todo needs a title.")
    XCTAssertEqual(lastLine(screen, "toggle one"), "toggle needs a todo number, as in 'toggle 1'.")
    XCTAssertEqual(lastLine(screen, "edit 4 New"), "There is no todo #4 in this list.")
    XCTAssertEqual(lastLine(screen, "delete 1"), "There is no todo #1 in this list.")
    XCTAssertEqual(lastLine(screen, "filter later"), "filter takes one of: all, active, done.")
    XCTAssertEqual(
      lastLine(screen, "login a b"),
      "'a b' is not a valid name: use 1 to 20 letters, digits, '-' or '_'.")
    XCTAssertEqual(lastLine(screen, "dance"), "Unknown command 'dance'. Type help for the list.")
    XCTAssertEqual(screen.render(.script).first, "Todos · not signed in")
  }

  func test_handle_keysAddToggleAndQuit() {
    // given
    let provider = ServiceProvider()
    let screen = TodosScreen(provider: provider)
    // when
    press(screen, .character("a"))
    press(screen, .character("H"), .character("i"), .enter)
    press(screen, .character("a"), .character("X"), .escape)
    press(screen, .character(" "))
    press(screen, .character("l"), .character("z"), .enter)
    let quit = screen.handle(.character("q"))
    // then
    XCTAssertEqual(
      provider.store.currentState.todos.items, [Todo(id: 1, title: "Hi", isDone: true)])
    XCTAssertEqual(provider.store.currentState.session.user, User(name: "z"))
    XCTAssertEqual(quit, .quit)
    let lines = screen.render(.terminal(TerminalSize(columns: 80, rows: 24)))
    XCTAssertTrue(lines.last?.contains("q quit") ?? false)
  }

  func test_handle_commandPromptRunsScriptCommands() {
    // given
    let provider = ServiceProvider()
    let screen = TodosScreen(provider: provider)
    // when
    press(screen, .character(":"))
    for character in "add Tea" { press(screen, .character(character)) }
    press(screen, .enter, .character("e"), .control("u"))
    for character in "Green tea" { press(screen, .character(character)) }
    press(screen, .enter)
    // then
    XCTAssertEqual(provider.store.currentState.todos.items, [Todo(id: 1, title: "Green tea")])
  }

  private func run(_ screen: TodosScreen, _ lines: String...) {
    for line in lines { XCTAssertEqual(screen.perform(ScriptCommand(line)!), .continue) }
  }

  private func press(_ screen: TodosScreen, _ keys: Key...) {
    for key in keys { XCTAssertEqual(screen.handle(key), .continue) }
  }

  private func lastLine(_ screen: TodosScreen, _ line: String) -> String? {
    run(screen, line)
    return screen.render(.script).last
  }
}
