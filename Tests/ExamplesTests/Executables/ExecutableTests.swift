import Foundation
import XCTest

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Drives the built example executables through standard input, as a script would, and
/// through a pseudo-terminal, as a person would.
final class ExecutableTests: XCTestCase {
  func test_counter_script_printsTheScreenAfterEachCommand() throws {
    // when
    let result = try ExampleProcess.run(
      "Counter", ["--delay", "0.01"], input: "increase\n\n# a comment\n+\ndecrease\njump\n")
    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.standardOutput,
      """
      Counter  (-5…5)
      value: 0
      > increase
      Counter  (-5…5)
      value: 1
      > +
      Counter  (-5…5)
      value: 2
      > decrease
      Counter  (-5…5)
      value: 1
      > jump
      Counter  (-5…5)
      value: 1
      Unknown command 'jump'. Type help for the list.

      """)
  }

  func test_counter_script_stopsAtQuit() throws {
    // when
    let result = try ExampleProcess.run("Counter", ["--delay=0"], input: "+\nquit\n+\n")
    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.standardOutput.hasSuffix("value: 1\n> quit\n"))
  }

  func test_gitHubSearch_script_searchesPagesAndShowsDetails() throws {
    // when
    let result = try ExampleProcess.run(
      "GitHubSearch", ["--latency", "0.01", "--debounce", "0.01"],
      input: "type swift\nnext\nshow 1\nsearch language:rust cache\nclear\n")
    // then
    XCTAssertEqual(result.status, 0)
    let screens = result.standardOutput.components(separatedBy: "\n> ")
    XCTAssertEqual(screens.count, 6)
    XCTAssertTrue(screens[0].hasPrefix("GitHub Search · offline dataset of 3000 repositories\n"))
    XCTAssertTrue(screens[1].contains("repositories for \"swift\" · showing 30 · more available"))
    XCTAssertTrue(screens[1].contains("\n  30. "))
    XCTAssertFalse(screens[1].contains("\n  31. "))
    XCTAssertTrue(screens[2].contains("· showing 60 ·"))
    XCTAssertTrue(screens[3].contains("https://github.com/"))
    XCTAssertTrue(screens[4].contains("for \"language:rust cache\""))
    XCTAssertTrue(screens[4].contains("  Rust  "))
    XCTAssertFalse(screens[4].contains("  Swift  "))
    XCTAssertTrue(screens[5].hasSuffix("type a query to search repositories\n"))
  }

  func test_gitHubSearch_online_unreachable_explainsWhatToDo() throws {
    // when
    let result = try ExampleProcess.run(
      "GitHubSearch", ["--online", "--api-url", "http://127.0.0.1:9"], input: "search swift\n")
    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.standardOutput.contains("error: Cannot reach 127.0.0.1 ("))
    XCTAssertTrue(result.standardOutput.contains("run without --online to search the embedded"))
  }

  func test_todos_script_printsTheScreenAfterEachCommand() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    // when
    let result = try ExampleProcess.run(
      "Todos", input: "add Buy milk\nadd Call mom\ntoggle 1\nlogin alice\nfilter active\n",
      in: directory)
    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.standardOutput.components(separatedBy: "\n> ").last,
      """
      filter active
      Todos · signed in as alice
      filter: all [active] done
        1. [ ] Call mom
      2 todos · 1 done · 1 active · 50% done

      """)
  }

  func test_todos_savesTheStateAndTheLogInTheCurrentDirectoryByDefault() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    // when
    let first = try ExampleProcess.run(
      "Todos", input: "add Buy milk\nadd Call mom\ntoggle 2\nundo\nredo\n", in: directory)
    let second = try ExampleProcess.run("Todos", input: "undo\n", in: directory)
    // then
    XCTAssertEqual(first.status, 0)
    XCTAssertEqual(second.status, 0)
    XCTAssertTrue(
      second.standardOutput.hasPrefix(
        """
        Todos · not signed in
        filter: [all] active done
          1. [ ] Buy milk
          2. [x] Call mom
        2 todos · 1 done · 1 active · 50% done
        > undo
        Todos · not signed in
        filter: [all] active done
          1. [ ] Buy milk
          2. [x] Call mom
        2 todos · 1 done · 1 active · 50% done
        Nothing to undo.

        """), "The restored state is where the history starts.")
    let saved = try String(
      contentsOf: directory.appendingPathComponent("todos.json"), encoding: .utf8)
    XCTAssertTrue(saved.contains(#""title":"Call mom""#))
    let log = try String(contentsOf: directory.appendingPathComponent("todos.log"), encoding: .utf8)
    XCTAssertTrue(log.contains(#"[store] action TodoAction.add(title: "Buy milk")"#))
    XCTAssertTrue(log.contains("[TodoListReactor] mutation TodoListReactor.Mutation.setTodos("))
    XCTAssertTrue(log.contains("[store] action HistoryAction("))
  }

  func test_todos_undoAndRedoThroughTheStatePathAndLogOptions() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    let state = directory.appendingPathComponent("list.json").path
    let log = directory.appendingPathComponent("events.log").path
    // when
    let result = try ExampleProcess.run(
      "Todos", ["--state", state, "--log", log],
      input: "add a\nadd b\ndelete 1\nundo\nundo\nredo\nredo\nredo\n")
    // then
    XCTAssertEqual(result.status, 0)
    let lists = result.standardOutput.components(separatedBy: "\n> ").dropFirst().map {
      $0.split(separator: "\n").filter { $0.hasPrefix("  ") }.joined(separator: "|")
    }
    XCTAssertEqual(
      lists,
      [
        "  1. [ ] a", "  1. [ ] a|  2. [ ] b", "  1. [ ] b", "  1. [ ] a|  2. [ ] b",
        "  1. [ ] a", "  1. [ ] a|  2. [ ] b", "  1. [ ] b", "  1. [ ] b",
      ])
    XCTAssertTrue(result.standardOutput.hasSuffix("Nothing to redo.\n"))
    XCTAssertTrue(FileManager.default.fileExists(atPath: state))
    XCTAssertTrue(FileManager.default.fileExists(atPath: log))
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path).count, 2)
  }

  func test_todos_corruptStateFile_isMovedAsideAndExplained() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    let state = directory.appendingPathComponent("todos.json")
    try Data("{ not json".utf8).write(to: state)
    // when
    let result = try ExampleProcess.run("Todos", input: "add fresh\n", in: directory)
    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(result.standardOutput.contains("is corrupt"))
    XCTAssertTrue(result.standardOutput.contains("Starting with an empty list."))
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    let moved = try XCTUnwrap(files.first { $0.hasPrefix("todos.json.corrupt-") })
    XCTAssertEqual(
      try String(contentsOf: directory.appendingPathComponent(moved), encoding: .utf8),
      "{ not json")
    XCTAssertTrue(try String(contentsOf: state, encoding: .utf8).contains(#""title":"fresh""#))
  }

  func test_examples_rejectUnknownArguments() throws {
    let directory = try makeTemporaryDirectory(for: self)
    for name in ["Counter", "GitHubSearch", "Todos"] {
      // when
      let result = try ExampleProcess.run(name, ["--bogus"], input: "", in: directory)
      // then
      XCTAssertEqual(result.status, 2, name)
      XCTAssertTrue(result.standardError.contains("Unknown argument '--bogus'."), name)
      XCTAssertTrue(result.standardError.contains("Usage: \(name)"), name)
      XCTAssertEqual(result.standardOutput, "", name)
    }
  }

  func test_counter_interactive_redrawsInPlaceAndRestoresTheTerminal() throws {
    // given
    let terminal = try PseudoTerminal()
    let cookedModes = terminal.localModes
    let process = try terminal.start("Counter", ["--delay", "0.01"])
    XCTAssertTrue(terminal.waitFor("value: "))
    // when
    let rawModes = terminal.localModes
    terminal.type("+")
    XCTAssertTrue(terminal.waitFor("\u{1B}[1m1\u{1B}[0m"))
    terminal.type("q")
    let status = ExampleProcess.waitForExit(process)
    terminal.waitFor(ANSIEnd.leaveAlternateScreen, timeout: 5)
    // then
    XCTAssertEqual(status, 0)
    XCTAssertEqual(rawModes & tcflag_t(ICANON | ECHO), 0, "Raw mode: no line buffering, no echo.")
    XCTAssertEqual(terminal.localModes, cookedModes, "The terminal settings are restored.")
    XCTAssertTrue(terminal.received.contains("\u{1B}[?1049h\u{1B}[?25l"))
    XCTAssertTrue(terminal.received.contains("\u{1B}[H"))
    XCTAssertTrue(terminal.received.hasSuffix("\u{1B}[?25h" + ANSIEnd.leaveAlternateScreen))
  }

  func test_todos_interactive_restoresTheTerminalOnSIGTERM() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    let terminal = try PseudoTerminal()
    let cookedModes = terminal.localModes
    let process = try terminal.start("Todos", in: directory)
    XCTAssertTrue(terminal.waitFor("q quit"))
    terminal.type("a")
    terminal.type("Milk\r")
    XCTAssertTrue(terminal.waitFor("1 todo · 0 done"))
    // when
    process.terminate()
    let status = ExampleProcess.waitForExit(process)
    terminal.waitFor(ANSIEnd.leaveAlternateScreen, timeout: 5)
    // then
    XCTAssertEqual(status, 128 + SIGTERM)
    XCTAssertEqual(terminal.localModes, cookedModes)
    XCTAssertTrue(terminal.received.hasSuffix(ANSIEnd.leaveAlternateScreen))
    let saved = try String(
      contentsOf: directory.appendingPathComponent("todos.json"), encoding: .utf8)
    XCTAssertTrue(saved.contains(#""title":"Milk""#), "The state is saved on the way out.")
  }

  func test_gitHubSearch_interactive_ctrlCQuitsAndRestores() throws {
    // given
    let terminal = try PseudoTerminal()
    let cookedModes = terminal.localModes
    let process = try terminal.start("GitHubSearch", ["--latency", "0.01", "--debounce", "0.01"])
    XCTAssertTrue(terminal.waitFor("esc quit"))
    terminal.type("reactor")
    XCTAssertTrue(terminal.waitFor("repositories for \"reactor\""))
    // when
    terminal.type("\u{03}")
    let status = ExampleProcess.waitForExit(process)
    terminal.waitFor(ANSIEnd.leaveAlternateScreen, timeout: 5)
    // then
    XCTAssertEqual(status, 130)
    XCTAssertEqual(terminal.localModes, cookedModes)
  }
}

private enum ANSIEnd {
  static let leaveAlternateScreen = "\u{1B}[?1049l"
}
