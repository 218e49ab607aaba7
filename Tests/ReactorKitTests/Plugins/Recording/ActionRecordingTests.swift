import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class ActionRecordingTests: ResourceTestCase {
  private var directory: TemporaryDirectory!
  private var url: URL { directory.file("session.jsonl") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory.remove()
    directory = nil
    super.tearDown()
  }

  /// Turns every `add("tea")` into the add plus a `count("tea")`, so the actions that reach the
  /// reducer differ from the dispatched ones.
  private var teaMiddleware: Middleware<DemoState> {
    Middleware { _, _, action in
      if case DemoAction.add("tea") = action { return [action, DemoAction.count("tea")] }
      return [action]
    }
  }

  private func write(_ text: String) {
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8)))
  }

  private func loadError(
    registry: ActionRegistry = DemoState.registry, limits: LoadingLimits = .default
  ) -> RecordingError? {
    do {
      let recording = try ActionRecording(contentsOf: url, registry: registry, limits: limits)
      XCTFail("loaded \(recording.actions.count) actions")
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Record and replay

  func test_recordAndReplay_reproducesTheFinalState_forALongRandomSession() throws {
    // given
    // seed 2024 by default (STRESS_SEED moves it)
    var generator = SeededRandomNumberGenerator(seed: StressConfiguration.seed &+ 2_023)
    let store = Store(reducer: DemoState.reducer, state: DemoState(), middleware: [teaMiddleware])
    let recorder = try ActionRecorder(registry: DemoState.registry, url: url)
    let subscription = store.install(recorder.forStore())
    let count = StressConfiguration.iterations(2_000)
    for _ in 0..<count { store.dispatch(randomDemoAction(using: &generator)) }
    subscription.dispose()
    recorder.flush()
    // when
    let recording = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    let replayed = Store(
      reducer: DemoState.reducer, state: DemoState(), middleware: [teaMiddleware])
    try recording.replay(into: replayed)
    // then
    XCTAssertEqual(recording.stateType, "ReactorKitTests.DemoState")
    XCTAssertGreaterThan(recording.actions.count, count, "middleware-made actions are recorded")
    XCTAssertEqual(replayed.currentState, store.currentState)
    XCTAssertEqual(recorder.skippedTypes, [])
  }

  func test_replayThroughMiddleware_runsTheChain() throws {
    // given
    let recording = ActionRecording([DemoAction.add("tea")])
    let store = Store(reducer: DemoState.reducer, state: DemoState(), middleware: [teaMiddleware])
    // when
    try recording.replay(into: store, throughMiddleware: true)
    // then
    XCTAssertEqual(store.currentState.counters, ["tea": 1])
  }

  func test_recorder_writesAHeaderAndOneLinePerAction_ownerOnly() throws {
    // given
    let recorder = try ActionRecorder(registry: DemoState.registry, url: url)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [recorder.forStore()])
    // when
    store.dispatch(DemoAction.add("Milk"))
    store.dispatch(DemoRename(id: 1, title: "Oat milk"))
    // then
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertEqual(
      text,
      """
      {"format":"reactorkit.actions","library":"\(ReactorKitLibrary.version)","state":"ReactorKitTests.DemoState","version":2}
      {"action":{"add":{"_0":"Milk"}},"type":"DemoAction"}
      {"action":{"id":1,"title":"Oat milk"},"type":"DemoRename"}

      """)
    XCTAssertEqual(permissions(of: url), 0o600)
  }

  func test_recorder_inMemory_andWriteAndLoadRoundTrip() throws {
    // given
    let store = Store(reducer: DemoState.reducer, state: DemoState())
    let recorder = ActionRecorder(registry: DemoState.registry)
    store.install(recorder.forStore())
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    store.dispatch(DemoAction.add("x"))
    // when
    try recorder.recording.write(to: url, registry: DemoState.registry)
    let loaded = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    // then
    XCTAssertEqual(loaded.actions.count, 2)
    XCTAssertEqual(loaded.actions.first as? DemoAction, .logIn(name: "ann", password: "pw"))
    XCTAssertEqual(permissions(of: url), 0o600)
  }

  func test_recorder_skipsAndReportsUnregisteredActions() {
    // given
    let errors = StoreLockedBox<[RecordingError]>([])
    let store = Store(reducer: DemoState.reducer, state: DemoState())
    let recorder = ActionRecorder(registry: DemoState.registry) { error in
      errors.withLock { $0.append(error) }
    }
    store.install(recorder.forStore())
    // when
    store.dispatch(DemoAction.add("x"))
    store.dispatch(DemoUnregistered(value: 3))
    // then
    XCTAssertEqual(recorder.recording.actions.count, 1)
    XCTAssertEqual(recorder.skippedTypes, ["DemoUnregistered"])
    XCTAssertEqual(errors.current, [.unregisteredAction(type: "DemoUnregistered")])
    XCTAssertTrue(errors.current.first?.description.contains("register it") ?? false)
  }

  func test_recording_ofUnregisteredActions_cannotBeEncoded() {
    // given
    let recording = ActionRecording([DemoAction.logOut, DemoUnregistered()])
    // when / then
    XCTAssertThrowsError(try recording.jsonLines(registry: DemoState.registry)) { error in
      XCTAssertEqual(error as? RecordingError, .unregisteredAction(type: "DemoUnregistered"))
    }
  }

  func test_recorder_toAnUnwritablePath_throws() {
    // when / then
    XCTAssertThrowsError(
      try ActionRecorder(registry: DemoState.registry, url: directory.file("missing/x.jsonl"))
    ) { error in
      guard case .writeFailed(let path, _)? = error as? RecordingError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(path.hasSuffix("missing/x.jsonl"))
    }
  }

  func test_timeTravel_isRecordedAndReplayed() throws {
    // given
    var registry = DemoState.registry
    registry.register(HistoryAction.self)
    func makeStore() -> (Store<DemoState>, StateHistory<DemoState>) {
      let history = StateHistory<DemoState>(capacity: 4)
      let store = Store(reducer: DemoState.reducer, state: DemoState(), plugins: [history])
      return (store, history)
    }
    let (store, history) = makeStore()
    let recorder = ActionRecorder(registry: registry)
    store.install(recorder.forStore())
    var generator = SeededRandomNumberGenerator(seed: 99)
    for step in 0..<300 {
      switch step % 7 {
      case 3: history.stepBack(Int.random(in: 1...3, using: &generator))
      case 5: history.jump(to: Int.random(in: 0...5, using: &generator))
      case 6: history.stepForward()
      default: store.dispatch(randomDemoAction(using: &generator))
      }
    }
    // when
    let lines = try recorder.recording.jsonLines(registry: registry)
    let loaded = try ActionRecording(jsonLines: lines, registry: registry)
    let (replayed, replayedHistory) = makeStore()
    try loaded.replay(into: replayed)
    // then
    XCTAssertEqual(replayed.currentState, store.currentState)
    XCTAssertEqual(replayedHistory.states, history.states)
    XCTAssertEqual(replayedHistory.currentIndex, history.currentIndex)
  }

  // MARK: - Registry

  func test_registry_namesTypes_andAcceptsRepeatedRegistration() {
    // given
    var registry = ActionRegistry()
    // when
    registry.register(DemoAction.self)
    registry.register(DemoAction.self)
    registry.register(DemoRename.self, as: "rename")
    // then
    XCTAssertEqual(registry.names, ["DemoAction", "rename"])
    XCTAssertEqual(registry.name(of: DemoRename(id: 1, title: "")), "rename")
    XCTAssertNil(registry.name(of: DemoUnregistered()))
  }

  // MARK: - Bad input

  func test_load_missingFile_isUnreadable() {
    // when
    let error = loadError()
    // then
    XCTAssertEqual(error, .unreadable(path: url.path, reason: "no such file"))
  }

  func test_load_emptyFile_hasNoHeader() {
    // given
    write("")
    // when / then
    XCTAssertEqual(loadError(), .missingHeader(path: url.path))
  }

  func test_load_actionsWithoutHeader_haveNoHeader() {
    // given
    write(#"{"action":"logOut","type":"DemoAction"}"# + "\n")
    // when / then
    XCTAssertEqual(loadError(), .missingHeader(path: url.path))
    XCTAssertTrue(loadError()?.description.contains(url.path) ?? false)
  }

  func test_load_newerVersion_isUnsupported() {
    // given
    write(#"{"format":"reactorkit.actions","version":3}"# + "\n")
    // when / then
    XCTAssertEqual(loadError(), .unsupportedFormatVersion(path: url.path, found: 3, supported: 2))
    XCTAssertTrue(loadError()?.description.contains("versions 1 to 2") ?? false)
  }

  // MARK: - State type

  func test_replay_intoAStoreOfAnotherStateType_throwsNamingBoth_andReplaysNothing() throws {
    // given: a recording of a DemoState store, loaded from its file
    let recorder = try ActionRecorder(registry: DemoState.registry, url: url)
    let recorded = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [recorder.forStore()])
    recorded.dispatch(DemoAction.add("Milk"))
    recorder.flush()
    let recording = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    XCTAssertEqual(recording.stateType, "ReactorKitTests.DemoState")
    let reduced = LockedBox(0)
    let other = Store(
      reducer: Reducer<Int> { state, _ in
        reduced.withLock { $0 += 1 }
        state += 1
      }, state: 0)
    // when / then
    XCTAssertThrowsError(try recording.replay(into: other)) { error in
      XCTAssertEqual(
        error as? RecordingError,
        .stateTypeMismatch(recorded: "ReactorKitTests.DemoState", store: "Swift.Int"))
      XCTAssertEqual(
        "\(error)",
        "The recording was made from a store of state type ReactorKitTests.DemoState; it "
          + "cannot replay into a store of state type Swift.Int.")
    }
    XCTAssertEqual(reduced.withLock { $0 }, 0, "no action was replayed")
    XCTAssertEqual(other.currentState, 0)
    // and the same recording replays into its own type
    let same = Store(reducer: DemoState.reducer, state: DemoState())
    try recording.replay(into: same)
    XCTAssertEqual(same.currentState, recorded.currentState)
  }

  func test_stateType_survivesWritingAndLoading_andVersion1FilesStillLoad() throws {
    // given
    let inMemory = ActionRecorder(registry: DemoState.registry)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [inMemory.forStore()])
    store.dispatch(DemoAction.add("Tea"))
    // when
    let bytes = try inMemory.recording.jsonLines(registry: DemoState.registry)
    let loaded = try ActionRecording(jsonLines: bytes, registry: DemoState.registry)
    // then
    XCTAssertEqual(inMemory.recording.stateType, "ReactorKitTests.DemoState")
    XCTAssertEqual(loaded.stateType, "ReactorKitTests.DemoState")
    XCTAssertEqual(loaded.libraryVersion, ReactorKitLibrary.version)
    XCTAssertEqual(loaded.actions.count, 1)
    let built = ActionRecording([DemoAction.add("Tea")], stateType: DemoState.self)
    XCTAssertEqual(built.stateType, loaded.stateType)
    // a version 1 file names no state type and replays anywhere
    write(
      #"{"format":"reactorkit.actions","version":1}"# + "\n"
        + #"{"action":{"add":{"_0":"Milk"}},"type":"DemoAction"}"# + "\n")
    let old = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    XCTAssertNil(old.stateType)
    XCTAssertNil(old.libraryVersion, "an old file does not say which library made it")
    let replayed = Store(reducer: DemoState.reducer, state: DemoState())
    try old.replay(into: replayed)
    XCTAssertEqual(replayed.currentState.todos.count, 1)
  }

  func test_load_truncatedLastLine_isATornTail_withItsLineNumber() throws {
    // given
    let recording = ActionRecording([DemoAction.add("a"), DemoAction.add("b")])
    let bytes = try recording.jsonLines(registry: DemoState.registry)
    write(String(decoding: bytes.dropLast(10), as: UTF8.self))
    // when
    let loaded = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    // then
    guard case .tornLastLine(let path, let line, _)? = loaded.tornTail else {
      return XCTFail("got \(String(describing: loaded.tornTail))")
    }
    XCTAssertEqual(path, url.path)
    XCTAssertEqual(line, 3)
    XCTAssertEqual(loaded.actions as? [DemoAction], [.add("a")])
  }

  func test_load_unknownType_isReported() {
    // given
    write(
      #"{"format":"reactorkit.actions","version":1}"# + "\n"
        + #"{"action":{},"type":"Launch"}"# + "\n")
    // when / then
    XCTAssertEqual(loadError(), .unknownActionType(path: url.path, line: 2, type: "Launch"))
  }

  func test_load_actionOfTheWrongShape_isUndecodable() {
    // given
    write(
      #"{"format":"reactorkit.actions","version":1}"# + "\n"
        + #"{"action":{"id":"one","title":"x"},"type":"DemoRename"}"#)
    // when
    let error = loadError()
    // then
    guard case .undecodableAction(_, 2, "DemoRename", let reason)? = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertTrue(reason.contains(".id"), reason)
  }

  func test_load_oversizedFile_isRejected() {
    // given
    write(#"{"format":"reactorkit.actions","version":1}"# + String(repeating: "\n", count: 500))
    // when / then
    XCTAssertEqual(
      loadError(limits: LoadingLimits(maximumFileSize: 100)),
      .tooLarge(path: url.path, size: 543, limit: 100))
  }

  func test_load_deeplyNestedLine_isRejectedBeforeDecoding() {
    // given
    write(
      #"{"format":"reactorkit.actions","version":1}"# + "\n" + #"{"action":"#
        + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        + #","type":"DemoAction"}"#)
    // when / then
    XCTAssertEqual(loadError(), .nestingTooDeep(path: url.path, line: 2, limit: 64))
  }

  func test_load_blankLinesAndCarriageReturns_areAccepted() throws {
    // given
    write(
      #"{"format":"reactorkit.actions","version":1}"# + "\r\n\r\n"
        + #"{"action":{"logOut":{}},"type":"DemoAction"}"# + "\r\n\n")
    // when
    let recording = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    // then
    XCTAssertEqual(recording.actions.map { $0 as? DemoAction }, [.logOut])
  }

  func test_load_randomBytes_neverCrash() throws {
    // given
    // seed 11 by default (STRESS_SEED moves it)
    var generator = SeededRandomNumberGenerator(seed: StressConfiguration.seed &+ 10)
    var actions: [any Action] = []
    for _ in 0..<20 { actions.append(randomDemoAction(using: &generator)) }
    let valid = try ActionRecording(actions).jsonLines(registry: DemoState.registry)
    for round in 0..<StressConfiguration.iterations(300) {
      var bytes = valid
      switch round % 3 {
      case 0:
        bytes = (0..<Int.random(in: 0...300, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        }
      case 1:
        bytes = Array(valid.prefix(Int.random(in: 0...valid.count, using: &generator)))
      default:
        for _ in 0..<4 {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
      }
      // when / then: either loads or throws a RecordingError
      do {
        _ = try ActionRecording(jsonLines: bytes, registry: DemoState.registry)
      } catch {
        XCTAssertFalse(error.description.isEmpty)
      }
    }
  }
}
