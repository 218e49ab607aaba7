import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// Issue 32, parts 1 and 2: a flight recorder whose export a test replays, checking every
/// state against the recording's checkpoints.
final class FlightRecorderTests: XCTestCase {
  private func recordedSession(
    capacity: Int = 100, _ actions: [any Action]
  ) throws -> (recording: ActionRecording, store: Store<DemoState>) {
    let flight = FlightRecorder<DemoState>(registry: DemoState.registry, capacity: capacity)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [flight.forStore()])
    for action in actions { store.dispatch(action) }
    let data = try flight.exportData()
    return (try ActionRecording(jsonLines: Array(data), registry: DemoState.registry), store)
  }

  private let session: [any Action] = [
    DemoAction.add("milk"), DemoAction.add("eggs"), DemoAction.toggle(id: 2),
    DemoAction.tag("home"), DemoAction.logIn(name: "ann", password: "hunter2"),
    DemoAction.count("x"), DemoRename(id: 1, title: "oat milk"),
  ]

  /// Failures a test store reported, instead of failing this test.
  private func replayFailures(
    _ recording: ActionRecording, reducer: Reducer<DemoState> = DemoState.reducer,
    state: DemoState? = nil
  ) throws -> [String] {
    let start = try state ?? XCTUnwrap(recording.startState(as: DemoState.self))
    let store = TestStore(reducer: reducer, state: start)
    var failures: [String] = []
    store.reportFailure = { failures.append($0.message) }
    store.replay(recording)
    store.finish()
    return failures
  }

  func test_export_namesTheStateType_holdsTheStart_andAChangedPathCheckpointPerAction() throws {
    // when
    let (recording, _) = try recordedSession(session)
    // then
    XCTAssertEqual(recording.stateType, String(reflecting: DemoState.self))
    XCTAssertEqual(recording.libraryVersion, ReactorKitLibrary.version)
    XCTAssertEqual(recording.actions.count, session.count)
    XCTAssertEqual(recording.checkpoints.count, session.count)
    XCTAssertEqual(try recording.startState(as: DemoState.self), DemoState())
    XCTAssertNotNil(recording.start)
    let toggled = try XCTUnwrap(recording.checkpoints[2])
    XCTAssertEqual(toggled.changed, [".todos[1].isDone"])
    XCTAssertEqual(toggled.hash.count, 16)
    XCTAssertEqual(Set(recording.checkpoints.map { $0?.hash }).count, session.count)
    XCTAssertTrue(recording.redactedFieldNames?.contains("token") ?? false)
  }

  func test_ring_keepsTheLastActions_andStartsFromTheStateBeforeThem() throws {
    // when: seven actions into a ring of three
    let (recording, store) = try recordedSession(capacity: 3, session)
    // then
    XCTAssertEqual(recording.actions.count, 3)
    XCTAssertEqual(recording.actions.first as? DemoAction, .logIn(name: "ann", password: "hunter2"))
    let start = try XCTUnwrap(recording.startState(as: DemoState.self))
    XCTAssertEqual(start.tags, ["home"])
    XCTAssertNil(start.account)
    // and it replays from there to the recorded store's state
    let replayed = Store(reducer: DemoState.reducer, state: start)
    try recording.replay(into: replayed)
    XCTAssertEqual(replayed.currentState, store.currentState)
    XCTAssertEqual(try replayFailures(recording), [])
  }

  func test_replay_ofTheSameReducer_passes() throws {
    let (recording, _) = try recordedSession(session)
    XCTAssertEqual(try replayFailures(recording), [])
  }

  func test_replay_afterAReducerChange_failsAtTheFirstDivergingAction_namingItAndThePaths()
    throws
  {
    // given: the recorded session, and a reducer whose toggle no longer toggles
    let (recording, _) = try recordedSession(session)
    let broken = Reducer<DemoState> { state, action in
      if case .toggle? = action as? DemoAction { return }
      DemoState.reducer.reduce(&state, action)
    }
    // when
    let failures = try replayFailures(recording, reducer: broken)
    // then
    XCTAssertEqual(failures.count, 1, "\(failures)")
    let message = try XCTUnwrap(failures.first)
    XCTAssertTrue(
      message.hasPrefix(
        "Replaying action 3 of 7, DemoAction.toggle(id: 2), leads to another state than the "
          + "recording's."), message)
    XCTAssertTrue(
      message.contains("changed in the recording, not in the replay: .todos[1].isDone"), message)
  }

  func test_replay_withoutCheckpoints_ofAnotherType_orFromAnotherStart_failsSayingSo() throws {
    // an ActionRecorder's recording: actions only
    let plain = ActionRecording([DemoAction.add("milk")], stateType: DemoState.self)
    let noCheckpoints = try replayFailures(plain, state: DemoState())
    XCTAssertEqual(noCheckpoints.count, 1)
    XCTAssertTrue(noCheckpoints[0].hasPrefix("The recording has no state checkpoints"))
    // another state type
    var other = try recordedSession(session).recording
    other.stateType = "OtherApp.OtherState"
    let otherType = try replayFailures(other)
    XCTAssertEqual(
      otherType,
      [
        "The recording was made from a store of state type OtherApp.OtherState; it cannot "
          + "replay into a store of state type \(String(reflecting: DemoState.self))."
      ])
    // another start
    var elsewhere = DemoState()
    elsewhere.filter = .done
    let otherStart = try replayFailures(try recordedSession(session).recording, state: elsewhere)
    XCTAssertEqual(otherStart.count, 1)
    XCTAssertTrue(
      otherStart[0].hasPrefix("The test store starts from another state than the recording"),
      otherStart[0])
  }

  func test_fingerprint_ignoresSetAndDictionaryOrder_andSecretValues() {
    var first = DemoState()
    var second = DemoState()
    for tag in (0..<50).map(String.init) { first.tags.insert(tag) }
    for tag in (0..<50).reversed().map(String.init) { second.tags.insert(tag) }
    for key in (0..<30).map(String.init) { first.counters[key] = 1 }
    for key in (0..<30).reversed().map(String.init) { second.counters[key] = 1 }
    first.account = DemoAccount(name: "ann", token: "one")
    second.account = DemoAccount(name: "ann", token: "two")
    let redaction = LogRedaction.default
    XCTAssertEqual(
      StateCheckpoint.fingerprint(of: first, redaction: redaction),
      StateCheckpoint.fingerprint(of: second, redaction: redaction))
    second.account?.name = "bob"
    XCTAssertNotEqual(
      StateCheckpoint.fingerprint(of: first, redaction: redaction),
      StateCheckpoint.fingerprint(of: second, redaction: redaction))
    XCTAssertNotEqual(
      StateCheckpoint.fingerprint(of: first, redaction: .none),
      StateCheckpoint.fingerprint(
        of: {
          var copy = first
          copy.account?.token = "three"
          return copy
        }(),
        redaction: .none))
  }

  func test_exportToShare_redactsTheStartStateAsWellAsTheActions() throws {
    // given: a start state that holds a token (the ring keeps only the last action)
    let flight = FlightRecorder<DemoState>(registry: DemoState.registry, capacity: 1)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [flight.forStore()])
    store.dispatch(DemoAction.logIn(name: "ann", password: "hunter2"))
    store.dispatch(DemoAction.add("milk"))
    // when
    let shared = String(decoding: try flight.exportData(redaction: .default), as: UTF8.self)
    let plain = String(decoding: try flight.exportData(), as: UTF8.self)
    // then
    XCTAssertTrue(plain.contains("tok-ann-7"), plain)
    XCTAssertFalse(shared.contains("tok-ann"), shared)
    XCTAssertTrue(shared.contains(#""token":"<redacted>""#), shared)
  }

  func test_export_ofAnUnregisteredAction_throwsNamingItsType() {
    let flight = FlightRecorder<DemoState>(registry: DemoState.registry)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [flight.forStore()])
    store.dispatch(DemoUnregistered())
    XCTAssertThrowsError(try flight.exportData()) { error in
      XCTAssertEqual(error as? RecordingError, .unregisteredAction(type: "DemoUnregistered"))
    }
  }

  func test_recordingFromManyThreads_keepsACapacityOfConsistentEvents() throws {
    let flight = FlightRecorder<DemoState>(registry: DemoState.registry, capacity: 64)
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [flight.forStore()])
    DispatchQueue.concurrentPerform(iterations: 8) { worker in
      for step in 0..<100 { store.dispatch(DemoAction.count("w\(worker)-\(step % 3)")) }
    }
    let recording = try ActionRecording(
      jsonLines: Array(try flight.exportData()), registry: DemoState.registry)
    XCTAssertEqual(recording.actions.count, 64)
    XCTAssertEqual(try replayFailures(recording), [])
  }
}
