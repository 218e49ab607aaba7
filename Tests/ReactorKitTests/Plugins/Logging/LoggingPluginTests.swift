import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class LoggingPluginTests: ResourceTestCase {
  private let start = Date(timeIntervalSince1970: 1_735_689_600)  // 2025-01-01T00:00:00Z

  private func scriptedSession(format: LogFormat) -> [String] {
    let lines = LinesBox()
    let logger = LoggingPlugin(
      sink: lines.sink(format: format),
      clock: .stepping(from: start, by: .milliseconds(1)))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(),
      middleware: [logger.middleware(source: "store")])
    let reactor = DemoCounterReactor()
    reactor.install(logger, source: "counter")
    store.dispatch(DemoAction.logIn(name: "ann", password: "hunter2"))
    store.dispatch(DemoAction.add("Milk"))
    reactor.action.onNext(.increase)
    store.dispatch(DemoAction.toggle(id: 1))
    store.dispatch(DemoAction.tag("home"))
    store.dispatch(DemoAction.count("visits"))
    store.dispatch(DemoAction.setFilter(.done))
    reactor.action.onNext(.rename("two"))
    store.dispatch(DemoAction.remove(id: 1))
    store.dispatch(DemoAction.logOut)
    logger.flush()
    return lines.lines
  }

  func test_loggingPlugin_writesTheScriptedSessionAsText() {
    // given
    let golden = Self.goldenText
    // when
    let output = scriptedSession(format: .text)
    // then
    XCTAssertEqual(output.joined(separator: "\n"), golden)
  }

  func test_loggingPlugin_writesTheScriptedSessionAsJSONLines() throws {
    // given
    let golden = Self.goldenJSONLines
    // when
    let output = scriptedSession(format: .jsonLines)
    // then
    XCTAssertEqual(output.joined(separator: "\n"), golden)
    let decoder = JSONDecoder()
    let events = try output.map { try decoder.decode(LogEvent.self, from: Data($0.utf8)) }
    XCTAssertEqual(events.map(\.sequence), Array(1...22))
    XCTAssertEqual(events[1].duration, .milliseconds(1))
    XCTAssertEqual(events[1].changes.map(\.path), [".account"])
    XCTAssertEqual(events[1].timestamp, start.addingTimeInterval(0.003))
  }

  func test_loggingPlugin_filtersBySourceAndKindBeforeRendering() {
    // given
    let lines = LinesBox()
    let rendered = StoreLockedBox(0)
    var redaction = LogRedaction.default
    redaction.redactValue = { value in
      rendered.withLock { $0 += 1 }
      return value
    }
    let logger = LoggingPlugin(
      sink: lines.sink(),
      filter: LogFilter(excludedSources: ["hidden"], kinds: [.action, .mutation]),
      redaction: redaction, clock: .stepping(from: start, by: .milliseconds(1)))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), middleware: [logger.middleware()])
    let hidden = Store(
      reducer: DemoState.reducer, state: DemoState(),
      middleware: [logger.middleware(source: "hidden")])
    let reactor = DemoCounterReactor()
    reactor.install(logger, source: "counter")
    // when
    store.dispatch(DemoAction.add("a"))
    hidden.dispatch(DemoAction.add("b"))
    reactor.action.onNext(.increase)
    logger.flush()
    // then
    XCTAssertEqual(lines.events.map(\.kind), [.action, .action, .mutation])
    XCTAssertEqual(lines.events.map(\.source), ["store", "counter", "counter"])
    XCTAssertEqual(lines.events.map(\.sequence), [1, 2, 3])
    XCTAssertEqual(rendered.current, 3, "filtered-out events must not be rendered")
  }

  func test_loggingPlugin_onlySources_andPredicate() {
    // given
    let lines = LinesBox()
    let logger = LoggingPlugin(
      sink: lines.sink(),
      filter: LogFilter(
        sources: ["counter"], isIncluded: { !$0.description.contains("x") }))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), middleware: [logger.middleware()])
    let reactor = DemoCounterReactor()
    reactor.install(logger, source: "counter")
    // when
    store.dispatch(DemoAction.add("a"))
    reactor.action.onNext(.rename("x"))
    reactor.action.onNext(.increase)
    logger.flush()
    // then
    XCTAssertEqual(lines.events.map(\.kind), [.action, .mutation, .state])
    XCTAssertEqual(lines.events.map(\.sequence), [1, 2, 3])
    XCTAssertEqual(lines.events.first?.description, "DemoCounterReactor.Action.increase")
  }

  func test_loggingPlugin_redactsByNameKeyPathAndClosure() {
    // given
    let lines = LinesBox()
    var redaction = LogRedaction.default
    redaction.fieldNames.insert("pin")
    redaction.redactValue = { value in
      if case .note? = value as? SecretAction { return SecretAction.note("(hidden)") }
      guard var state = value as? SecretState else { return value }
      state.vault.note = "(hidden)"
      return state
    }
    let logger = LoggingPlugin(sink: lines.sink(format: .jsonLines), redaction: redaction)
    let store = Store(
      reducer: SecretState.reducer, state: SecretState(),
      middleware: [
        logger.middleware(redacting: [
          .keyPath(\SecretState.session), .keyPath(\SecretState.optionalSession),
          .keyPath(\SecretState.code, with: -1),
          .custom { $0.history.removeAll() },
        ])
      ])
    // when
    store.dispatch(SecretAction.logIn(user: "ann", password: "hunter2"))
    store.dispatch(SecretAction.setAccessToken("AT-hunter2"))
    store.dispatch(SecretAction.setPassword("hunter2"))
    store.dispatch(SecretAction.store(pin: 4242))
    store.dispatch(SecretAction.note("diary-secret"))
    logger.flush()
    // then
    let log = lines.lines.joined(separator: "\n")
    for secret in ["hunter2", "4242", "S-ann", "diary-secret", "1234"] {
      XCTAssertFalse(log.contains(secret), "the log contains the secret \(secret):\n\(log)")
    }
    XCTAssertTrue(log.contains("<redacted>"))
    XCTAssertTrue(log.contains("(hidden)"))
    XCTAssertTrue(log.contains("SecretAction.logIn(user: \\\"ann\\\", password: <redacted>)"))
    XCTAssertTrue(log.contains(#""description":"\\.accessToken: <redacted> → <redacted>""#), log)
  }

  func test_loggingPlugin_fileSink_writesOwnerOnlyJSONLines() throws {
    // given
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("app.log")
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("old\n".utf8)))
    unsafe chmod(url.path, 0o644)
    let logger = LoggingPlugin(
      sink: try .file(url, truncate: true), clock: .stepping(from: start, by: .seconds(1)))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), middleware: [logger.middleware()])
    // when
    store.dispatch(DemoAction.add("Milk"))
    logger.flush()
    // then
    XCTAssertEqual(permissions(of: url), 0o600)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 2)
    let events = try lines.map { try JSONDecoder().decode(LogEvent.self, from: Data($0.utf8)) }
    XCTAssertEqual(events.map(\.kind), [.action, .state])
    XCTAssertEqual(events[0].description, "DemoAction.add(\"Milk\")")
    XCTAssertEqual(events[1].changes.first?.path, ".todos[0]")
  }

  func test_loggingPlugin_fileSink_createsNewFilesOwnerOnlyAndAppends() throws {
    // given
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = directory.file("new.log")
    // when
    for round in 1...2 {
      let logger = LoggingPlugin(sink: try .file(url, format: .text))
      logger.log(source: "test", kind: .action, description: "round \(round)")
      logger.flush()
    }
    // then
    XCTAssertEqual(permissions(of: url), 0o600)
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(text.hasSuffix("[test] action round 2\n"), text)
    XCTAssertEqual(text.split(separator: "\n").count, 2)
  }

  func test_loggingPlugin_fileSink_reportsAnUnwritablePath() {
    // given
    let url = URL(fileURLWithPath: "/nonexistent-directory/app.log")
    // when / then
    XCTAssertThrowsError(try LogSink.file(url)) { error in
      XCTAssertEqual((error as? LogFileError)?.path, "/nonexistent-directory/app.log")
      XCTAssertTrue(String(describing: error).contains("/nonexistent-directory/app.log"))
    }
  }

  func test_loggingPlugin_detachingAReactorStopsItsEvents() {
    // given
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink())
    let reactor = DemoCounterReactor()
    let subscription = reactor.install(logger)
    reactor.action.onNext(.increase)
    // when
    subscription.dispose()
    reactor.action.onNext(.increase)
    logger.flush()
    // then
    XCTAssertEqual(lines.events.map(\.kind), [.action, .mutation, .state])
    XCTAssertEqual(lines.events.first?.source, "DemoCounterReactor")
    XCTAssertEqual(reactor.currentState.count, 2)
  }

  func test_loggingPlugin_numbersEventsFromManyThreadsInOneOrder() {
    // given
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(), filter: LogFilter(kinds: [.action]))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), middleware: [logger.middleware()])
    let reactors = UncheckedBox((0..<4).map { _ in DemoCounterReactor() })
    for (index, reactor) in reactors.value.enumerated() {
      reactor.install(logger, source: "reactor\(index)")
    }
    let perThread = 200
    // when
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for _ in 0..<perThread {
        store.dispatch(DemoAction.count("t\(thread)"))
        reactors.value[thread].action.onNext(.increase)
      }
    }
    logger.flush()
    // then
    let events = lines.events
    XCTAssertEqual(events.count, 4 * perThread * 2)
    XCTAssertEqual(events.map(\.sequence), Array(1...UInt64(events.count)))
    XCTAssertEqual(store.currentState.counters.values.reduce(0, +), 4 * perThread)
  }

  func test_logEvent_formatsDurationsAndMissingValues() {
    // given
    let event = LogEvent(
      sequence: 7, timestamp: start, source: "s", kind: .state, description: "",
      changes: [LogEvent.Change(path: "", old: nil, new: "1")], duration: .microseconds(1_234_567))
    let empty = LogEvent(
      sequence: 8, timestamp: start, source: "s", kind: .state, description: "no changes",
      duration: .nanoseconds(999))
    // when
    let text = event.formatted(as: .text)
    // then
    XCTAssertEqual(text, "2025-01-01T00:00:00.000Z #7 [s] state 1234.567 ms\n  \\.: (none) → 1")
    XCTAssertEqual(
      empty.formatted(as: .text), "2025-01-01T00:00:00.000Z #8 [s] state 0.000 ms (no changes)")
  }

  func test_loggingPlugin_customStateEvent_keepsItsTextInBothFormats() throws {
    // given: a custom state event, as Todos logs a failed background save
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink())
    // when
    logger.log(source: "persistence", kind: .state, description: "saving failed: disk full")
    logger.flush()
    // then
    let event = try XCTUnwrap(lines.events.first)
    XCTAssertTrue(
      event.formatted(as: .text).hasSuffix("[persistence] state saving failed: disk full"),
      event.formatted(as: .text))
    XCTAssertTrue(
      event.formatted(as: .jsonLines).contains(#""description":"saving failed: disk full""#))
  }

  private static let goldenText = #"""
    2025-01-01T00:00:00.000Z #1 [store] action DemoAction.logIn(name: "ann", password: <redacted>)
    2025-01-01T00:00:00.003Z #2 [store] state 1.000 ms
      \.account: nil → DemoAccount(name: "ann", token: <redacted>)
    2025-01-01T00:00:00.004Z #3 [store] action DemoAction.add("Milk")
    2025-01-01T00:00:00.007Z #4 [store] state 1.000 ms
      \.todos[0]: (none) → DemoTodo(id: 1, title: "Milk", isDone: false)
      \.nextID: 1 → 2
    2025-01-01T00:00:00.008Z #5 [counter] action DemoCounterReactor.Action.increase
    2025-01-01T00:00:00.009Z #6 [counter] mutation DemoCounterReactor.Mutation.add(1)
    2025-01-01T00:00:00.012Z #7 [counter] state 1.000 ms
      \.count: 0 → 1
    2025-01-01T00:00:00.013Z #8 [store] action DemoAction.toggle(id: 1)
    2025-01-01T00:00:00.016Z #9 [store] state 1.000 ms
      \.todos[0].isDone: false → true
    2025-01-01T00:00:00.017Z #10 [store] action DemoAction.tag("home")
    2025-01-01T00:00:00.020Z #11 [store] state 1.000 ms
      \.tags: (none) → "home"
    2025-01-01T00:00:00.021Z #12 [store] action DemoAction.count("visits")
    2025-01-01T00:00:00.024Z #13 [store] state 1.000 ms
      \.counters["visits"]: (none) → 1
    2025-01-01T00:00:00.025Z #14 [store] action DemoAction.setFilter(.done)
    2025-01-01T00:00:00.028Z #15 [store] state 1.000 ms
      \.filter: .all → .done
    2025-01-01T00:00:00.029Z #16 [counter] action DemoCounterReactor.Action.rename("two")
    2025-01-01T00:00:00.030Z #17 [counter] mutation DemoCounterReactor.Mutation.setName("two")
    2025-01-01T00:00:00.033Z #18 [counter] state 1.000 ms
      \.name: "" → "two"
    2025-01-01T00:00:00.034Z #19 [store] action DemoAction.remove(id: 1)
    2025-01-01T00:00:00.037Z #20 [store] state 1.000 ms
      \.todos[0]: DemoTodo(id: 1, title: "Milk", isDone: true) → (none)
    2025-01-01T00:00:00.038Z #21 [store] action DemoAction.logOut
    2025-01-01T00:00:00.041Z #22 [store] state 1.000 ms
      \.account: DemoAccount(name: "ann", token: <redacted>) → nil
    """#

  private static let goldenJSONLines = #"""
    {"description":"DemoAction.logIn(name: \"ann\", password: <redacted>)","kind":"action","sequence":1,"source":"store","timestamp":"2025-01-01T00:00:00.000Z"}
    {"changes":[{"new":"DemoAccount(name: \"ann\", token: <redacted>)","old":"nil","path":".account"}],"description":"\\.account: nil → DemoAccount(name: \"ann\", token: <redacted>)","durationNanoseconds":1000000,"kind":"state","sequence":2,"source":"store","timestamp":"2025-01-01T00:00:00.003Z"}
    {"description":"DemoAction.add(\"Milk\")","kind":"action","sequence":3,"source":"store","timestamp":"2025-01-01T00:00:00.004Z"}
    {"changes":[{"new":"DemoTodo(id: 1, title: \"Milk\", isDone: false)","path":".todos[0]"},{"new":"2","old":"1","path":".nextID"}],"description":"\\.todos[0]: (none) → DemoTodo(id: 1, title: \"Milk\", isDone: false); \\.nextID: 1 → 2","durationNanoseconds":1000000,"kind":"state","sequence":4,"source":"store","timestamp":"2025-01-01T00:00:00.007Z"}
    {"description":"DemoCounterReactor.Action.increase","kind":"action","sequence":5,"source":"counter","timestamp":"2025-01-01T00:00:00.008Z"}
    {"description":"DemoCounterReactor.Mutation.add(1)","kind":"mutation","sequence":6,"source":"counter","timestamp":"2025-01-01T00:00:00.009Z"}
    {"changes":[{"new":"1","old":"0","path":".count"}],"description":"\\.count: 0 → 1","durationNanoseconds":1000000,"kind":"state","sequence":7,"source":"counter","timestamp":"2025-01-01T00:00:00.012Z"}
    {"description":"DemoAction.toggle(id: 1)","kind":"action","sequence":8,"source":"store","timestamp":"2025-01-01T00:00:00.013Z"}
    {"changes":[{"new":"true","old":"false","path":".todos[0].isDone"}],"description":"\\.todos[0].isDone: false → true","durationNanoseconds":1000000,"kind":"state","sequence":9,"source":"store","timestamp":"2025-01-01T00:00:00.016Z"}
    {"description":"DemoAction.tag(\"home\")","kind":"action","sequence":10,"source":"store","timestamp":"2025-01-01T00:00:00.017Z"}
    {"changes":[{"new":"\"home\"","path":".tags"}],"description":"\\.tags: (none) → \"home\"","durationNanoseconds":1000000,"kind":"state","sequence":11,"source":"store","timestamp":"2025-01-01T00:00:00.020Z"}
    {"description":"DemoAction.count(\"visits\")","kind":"action","sequence":12,"source":"store","timestamp":"2025-01-01T00:00:00.021Z"}
    {"changes":[{"new":"1","path":".counters[\"visits\"]"}],"description":"\\.counters[\"visits\"]: (none) → 1","durationNanoseconds":1000000,"kind":"state","sequence":13,"source":"store","timestamp":"2025-01-01T00:00:00.024Z"}
    {"description":"DemoAction.setFilter(.done)","kind":"action","sequence":14,"source":"store","timestamp":"2025-01-01T00:00:00.025Z"}
    {"changes":[{"new":".done","old":".all","path":".filter"}],"description":"\\.filter: .all → .done","durationNanoseconds":1000000,"kind":"state","sequence":15,"source":"store","timestamp":"2025-01-01T00:00:00.028Z"}
    {"description":"DemoCounterReactor.Action.rename(\"two\")","kind":"action","sequence":16,"source":"counter","timestamp":"2025-01-01T00:00:00.029Z"}
    {"description":"DemoCounterReactor.Mutation.setName(\"two\")","kind":"mutation","sequence":17,"source":"counter","timestamp":"2025-01-01T00:00:00.030Z"}
    {"changes":[{"new":"\"two\"","old":"\"\"","path":".name"}],"description":"\\.name: \"\" → \"two\"","durationNanoseconds":1000000,"kind":"state","sequence":18,"source":"counter","timestamp":"2025-01-01T00:00:00.033Z"}
    {"description":"DemoAction.remove(id: 1)","kind":"action","sequence":19,"source":"store","timestamp":"2025-01-01T00:00:00.034Z"}
    {"changes":[{"old":"DemoTodo(id: 1, title: \"Milk\", isDone: true)","path":".todos[0]"}],"description":"\\.todos[0]: DemoTodo(id: 1, title: \"Milk\", isDone: true) → (none)","durationNanoseconds":1000000,"kind":"state","sequence":20,"source":"store","timestamp":"2025-01-01T00:00:00.037Z"}
    {"description":"DemoAction.logOut","kind":"action","sequence":21,"source":"store","timestamp":"2025-01-01T00:00:00.038Z"}
    {"changes":[{"new":"nil","old":"DemoAccount(name: \"ann\", token: <redacted>)","path":".account"}],"description":"\\.account: DemoAccount(name: \"ann\", token: <redacted>) → nil","durationNanoseconds":1000000,"kind":"state","sequence":22,"source":"store","timestamp":"2025-01-01T00:00:00.041Z"}
    """#
}

/// A reactor with a counter and a name, for the logging and bridging tests.
final class DemoCounterReactor: Reactor {
  enum Action: Equatable {
    case increase
    case rename(String)
  }

  enum Mutation: Equatable {
    case add(Int)
    case setName(String)
  }

  struct State: Equatable {
    var count = 0
    var name = ""
    var password = "secret"
  }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .increase: return .just(.add(1))
    case .rename(let name): return .just(.setName(name))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .add(let amount): state.count += amount
    case .setName(let name): state.name = name
    }
    return state
  }
}

/// A state with secrets in several shapes.
struct SecretState: Equatable {
  var user = ""
  var session = ""
  var optionalSession: String?
  var accessToken = ""
  var code = 1234
  var vault = SecretVault()
  var credentials: [String: String] = [:]
  var history: [String] = []

  static var reducer: Reducer<SecretState> {
    .on(SecretAction.self) { state, action in
      switch action {
      case .logIn(let user, let password):
        state.user = user
        state.session = "S-\(user)"
        state.optionalSession = "S-\(user)"
        state.credentials["password"] = password
        state.history.append(password)
      case .setAccessToken(let token):
        state.accessToken = token
      case .setPassword(let password):
        state.vault.password = password
      case .store(let pin):
        state.vault.pin = pin
        state.code = pin
      case .note(let note):
        state.vault.note = note
      }
    }
  }
}

struct SecretVault: Equatable {
  var password = ""
  var pin = 0
  var note = "vault-note"
}

enum SecretAction: Action, Equatable {
  case logIn(user: String, password: String)
  case setAccessToken(String)
  case setPassword(String)
  case store(pin: Int)
  case note(String)
}
