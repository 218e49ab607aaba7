import ExampleSupport
import Foundation
import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

/// Issue 32, part 2, in the example: a flight recording written by `Todos --record` replays
/// into a test store built like the app's, checking every state it recorded.
final class BugReportReplayTests: XCTestCase {
  /// A recording of a session (add three todos, toggle, undo, redo, filter, log in, edit,
  /// delete), written by `Todos --record` and committed.
  private var fixture: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/bug-report.jsonl")
  }

  /// The failures of replaying `recording` into the app's store (its reducer and the todos'
  /// undo history), built from the recording's start state.
  private func replayFailures(
    _ recording: ActionRecording, reducer: Reducer<AppState>? = nil
  ) throws -> [String] {
    let start = try XCTUnwrap(recording.startState(as: AppState.self))
    let store = TestStore(store: ServiceProvider(state: start, reducer: reducer).store)
    var failures: [String] = []
    store.reportFailure = { failures.append($0.message) }
    store.replay(recording)
    store.finish()
    return failures
  }

  func test_committedRecording_replaysState_byState() throws {
    let recording = try ActionRecording(contentsOf: fixture, registry: AppState.actionRegistry)
    XCTAssertEqual(recording.actions.count, 11)
    XCTAssertEqual(recording.stateType, "TodosKit.AppState")
    XCTAssertEqual(try replayFailures(recording), [])
  }

  func test_committedRecording_failsAtTheActionABrokenReducerGetsWrong() throws {
    // given: a regression, the editor no longer renames
    let recording = try ActionRecording(contentsOf: fixture, registry: AppState.actionRegistry)
    let broken = Reducer<AppState> { state, action in
      if case .edit? = action as? TodoAction { return }
      AppState.reducer.reduce(&state, action)
    }
    // when
    let failures = try replayFailures(recording, reducer: broken)
    // then
    XCTAssertEqual(failures.count, 1, "\(failures)")
    XCTAssertTrue(
      failures.first?.hasPrefix("Replaying action 7 of 11, TodoAction.edit(") ?? false,
      "\(failures)")
    XCTAssertTrue(failures.first?.contains(".todos.items[1].title") ?? false, "\(failures)")
  }

  /// The message Documentation/Testing.md quotes ("From a bug report to a test").
  func test_committedRecording_withAnEditThatUppercases_failsAsTheGuideShows() throws {
    // given
    let recording = try ActionRecording(contentsOf: fixture, registry: AppState.actionRegistry)
    let uppercasing = Reducer<AppState> { state, action in
      if case .edit(let id, let title)? = action as? TodoAction {
        AppState.reducer.reduce(&state, TodoAction.edit(id: id, title: title.uppercased()))
      } else {
        AppState.reducer.reduce(&state, action)
      }
    }
    // when
    let failures = try replayFailures(recording, reducer: uppercasing)
    // then
    XCTAssertEqual(
      failures,
      [
        "Replaying action 7 of 11, TodoAction.edit(id: 2, title: \"Call dad\"), leads to "
          + "another state than the recording's.\n"
          + "  the same paths changed (.todos.items[1].title), but not to the recorded values "
          + "(or the states already differed somewhere this step did not change)\n"
          + "  the replay set: .todos.items[1].title = \"CALL DAD\""
      ])
  }

  func test_todosRecord_writesARecordingThatReplays() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    // when
    let result = try ExampleProcess.run(
      "Todos", ["--record", "bug.jsonl"],
      input: "add Tea\nadd Bread\ntoggle 2\nundo\nfilter active\nquit\n", in: directory)
    // then
    XCTAssertEqual(result.status, 0, result.standardError)
    let recording = try ActionRecording(
      contentsOf: directory.appendingPathComponent("bug.jsonl"),
      registry: AppState.actionRegistry)
    XCTAssertEqual(recording.actions.count, 5)
    XCTAssertEqual(try replayFailures(recording), [])
  }
}
