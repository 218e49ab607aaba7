import Foundation
import ReactorKit
import Testing

/// Half-wiring a plugin fails loudly, naming the missing step, instead of silently doing
/// nothing (issue 21, item 1): each test runs its body in a child process that must exit with
/// a failure and print the message on standard error.
@Suite struct PluginWiringExitTests {
  private func expectMessage(
    _ result: ExitTest.Result?, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let standardError = result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) }
    #expect(
      standardError?.contains(message) == true,
      "standard error: \(standardError ?? "none")", sourceLocation: sourceLocation)
  }

  // MARK: - StateHistory

  /// Before: a history whose reducer was wrapped but whose middleware was forgotten recorded
  /// states (`canStepBack` was true) and `stepBack()` silently did nothing.
  @Test func history_recordingButNotInstalled_stepBackStopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let history = StateHistory<Int>(name: "counter")
      let store = Store(reducer: LegacyWiring.historyReducerOnly(history), state: 0)
      store.dispatch(Bump())
      precondition(history.canStepBack)
      history.stepBack()
    }
    expectMessage(
      result, "StateHistory \"counter\": stepBack(1) on a history that is not installed")
  }

  @Test func history_middlewareWithoutItsReducer_stopsTheProgramWhenTheStoreIsCreated() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let history = StateHistory<Int>(name: "counter")
      _ = Store(
        reducer: Reducer<Int> { count, _ in count += 1 }, state: 0,
        middleware: [LegacyWiring.historyMiddlewareOnly(history)])
    }
    expectMessage(result, "its middleware is in a store whose reducer it doesn't wrap")
  }

  // MARK: - StatePersistence

  @Test func persistence_installedWithoutRestoringAnExistingFile_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("reactorkit-wiring-\(UUID().uuidString).json")
      defer { try? FileManager.default.removeItem(at: url) }
      try! StatePersistence<Int>(url: url).save(41)
      let persistence = StatePersistence<Int>(url: url)
      _ = Store(reducer: Reducer<Int> { _, _ in }, state: 0, plugins: [persistence])
    }
    expectMessage(result, "installed in a store that was not started from restore(")
  }

  @Test func persistence_flushedButNeverInstalled_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("reactorkit-wiring-\(UUID().uuidString).json")
      let persistence = StatePersistence<Int>(url: url)
      let restored = try! persistence.restore(initialState: 0)
      let store = Store(reducer: Reducer<Int> { count, _ in count += 1 }, state: restored.state)
      store.dispatch(Bump())
      try! persistence.flush()
    }
    expectMessage(result, "the persistence is not installed in a store, so nothing is ever saved")
  }

  // MARK: - Store

  @Test func store_installingAPluginWithMiddlewareWhenRunning_stopsTheProgram() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let logger = LoggingPlugin(sink: LogSink { _ in })
      let store = Store(reducer: Reducer<Int> { _, _ in }, state: 0)
      store.install(logger.forStore())
    }
    expectMessage(result, "wraps the reducer or adds middleware, which a running store can't take")
  }
}

private struct Bump: Action {}

/// The deprecated two-step history wiring, one step at a time, reached through a protocol
/// whose requirements are not deprecated, so that the tests compile without warnings.
private protocol LegacyWiringCalls {
  static func historyReducerOnly(_ history: StateHistory<Int>) -> Reducer<Int>
  static func historyMiddlewareOnly(_ history: StateHistory<Int>) -> Middleware<Int>
}

private enum DeprecatedLegacyWiring: LegacyWiringCalls {
  @available(*, deprecated)
  static func historyReducerOnly(_ history: StateHistory<Int>) -> Reducer<Int> {
    history.reducer(Reducer<Int> { count, _ in count += 1 })
  }

  @available(*, deprecated)
  static func historyMiddlewareOnly(_ history: StateHistory<Int>) -> Middleware<Int> {
    history.middleware()
  }
}

private enum LegacyWiring {
  private static var calls: any LegacyWiringCalls.Type { DeprecatedLegacyWiring.self }

  static func historyReducerOnly(_ history: StateHistory<Int>) -> Reducer<Int> {
    calls.historyReducerOnly(history)
  }

  static func historyMiddlewareOnly(_ history: StateHistory<Int>) -> Middleware<Int> {
    calls.historyMiddlewareOnly(history)
  }
}
