import Dispatch
import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// A reactor whose mutations and state are `Codable`, with a secret in an action and in the
/// state.
private final class FlightProfileReactor: Reactor, @unchecked Sendable {
  // Safety: every member is immutable; the reactor engine serialises its own state.
  enum Action {
    case rename(String)
    case logIn(name: String, password: String)
    case clear
  }
  enum Mutation: Codable, Equatable {
    case setName(String)
    case setToken(String)
    case addTag(String)
  }
  struct State: Codable, Equatable {
    var name = ""
    var token = ""
    var tags: [String] = []
  }

  let initialState: State
  /// Stands in for a bug in `reduce`: `setName` uppercases the name.
  let uppercasesNames: Bool

  init(state: State = State(), uppercasesNames: Bool = false) {
    initialState = state
    self.uppercasesNames = uppercasesNames
  }

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .rename(let name): return .from([.setName(name), .addTag("renamed")])
    case .logIn(let name, let password): return .from([.setName(name), .setToken("t-" + password)])
    case .clear: return .empty()
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setName(let name): state.name = uppercasesNames ? name.uppercased() : name
    case .setToken(let token): state.token = token
    case .addTag(let tag): state.tags.append(tag)
    }
    return state
  }
}

/// Issue 32: a reactor's actions and mutations recorded, exported and replayed as a test.
final class ReactorFlightRecorderTests: ResourceTestCase {
  private func recorded(
    capacity: Int = 100,
    _ actions: [FlightProfileReactor.Action] = [
      .rename("ann"), .logIn(name: "bob", password: "hunter2"), .clear, .rename("cy"),
    ]
  ) throws -> (recording: ReactorRecording<FlightProfileReactor>, data: Data) {
    let reactor = FlightProfileReactor()
    let flight = ReactorFlightRecorder(recording: reactor, capacity: capacity)
    for action in actions { reactor.action.onNext(action) }
    let data = try flight.exportData()
    return (try ReactorRecording(jsonLines: Array(data)), data)
  }

  private func replayFailures(
    _ recording: ReactorRecording<FlightProfileReactor>,
    reactor: FlightProfileReactor = FlightProfileReactor()
  ) -> [String] {
    let store = ReactorTestStore(reactor: reactor)
    var failures: [String] = []
    store.reportFailure = { failures.append($0.message) }
    store.replay(recording)
    store.finish()
    return failures
  }

  func test_export_holdsActionsAsRedactedText_andMutationsWithCheckpoints() throws {
    // when
    let (recording, data) = try recorded()
    // then
    let text = String(decoding: data, as: UTF8.self)
    let header = try XCTUnwrap(text.split(separator: "\n").first)
    XCTAssertTrue(header.contains("\"format\":\"reactorkit.reactor\""), String(header))
    XCTAssertTrue(
      header.contains("\"reactor\":\"\(String(reflecting: FlightProfileReactor.self))\""),
      String(header))
    XCTAssertEqual(
      recording.mutations,
      [
        .setName("ann"), .addTag("renamed"), .setName("bob"), .setToken("t-hunter2"),
        .setName("cy"), .addTag("renamed"),
      ])
    let actions = recording.events.compactMap { if case .action(let a) = $0 { a } else { nil } }
    XCTAssertEqual(actions.count, 4)
    XCTAssertEqual(actions[0], "FlightProfileReactor.Action.rename(\"ann\")")
    XCTAssertEqual(
      actions[1], "FlightProfileReactor.Action.logIn(name: \"bob\", password: <redacted>)")
    let checkpoints = recording.events.compactMap {
      if case .mutation(_, let checkpoint) = $0 { checkpoint } else { nil }
    }
    XCTAssertEqual(checkpoints.count, 6)
    XCTAssertEqual(checkpoints[1].changed, [".tags[0]"])
    XCTAssertEqual(recording.startState, FlightProfileReactor.State())
    XCTAssertTrue(header.contains("\"library\":\"\(ReactorKitLibrary.version)\""), String(header))
    XCTAssertEqual(recording.libraryVersion, ReactorKitLibrary.version)
  }

  func test_replay_ofTheSameReactor_passes() throws {
    let (recording, _) = try recorded()
    XCTAssertEqual(replayFailures(recording), [])
  }

  func test_replay_withABugInReduce_failsAtTheFirstDivergingMutation() throws {
    // given
    let (recording, _) = try recorded()
    // when
    let failures = replayFailures(recording, reactor: FlightProfileReactor(uppercasesNames: true))
    // then
    XCTAssertEqual(
      failures,
      [
        "Replaying mutation 1 of 6, Mutation.setName(\"ann\") (after action "
          + "FlightProfileReactor.Action.rename(\"ann\")), leads to another state than the "
          + "recording's.\n"
          + "  the same paths changed (.name), but not to the recorded values (or the states "
          + "already differed somewhere this step did not change)\n"
          + "  the replay set: .name = \"ANN\""
      ])
  }

  func test_ring_keepsTheLastEvents_andTheStateBeforeThem() throws {
    // when: 10 events (4 actions, 6 mutations) into a ring of 4
    let (recording, _) = try recorded(capacity: 4)
    // then: the last action and mutations; the start is the state after the dropped ones
    XCTAssertEqual(recording.events.count, 4)
    XCTAssertEqual(recording.mutations, [.setName("cy"), .addTag("renamed")])
    XCTAssertEqual(
      recording.startState,
      FlightProfileReactor.State(name: "bob", token: "t-hunter2", tags: ["renamed"]))
    XCTAssertEqual(replayFailures(recording), [])
  }

  func test_redactedExport_replacesSecretsInMutationsAndTheStartState() throws {
    // given
    let reactor = FlightProfileReactor(state: FlightProfileReactor.State(token: "start-secret"))
    let flight = ReactorFlightRecorder(recording: reactor)
    reactor.action.onNext(.logIn(name: "bob", password: "pw"))
    // when
    let shared = String(decoding: try flight.exportData(redaction: .shared), as: UTF8.self)
    let plain = String(decoding: try flight.exportData(), as: UTF8.self)
    // then
    XCTAssertFalse(shared.contains("start-secret"), shared)
    XCTAssertTrue(plain.contains("start-secret"), "replaying needs the real start state")
  }

  func test_loadingARecordingOfAnotherReactor_throwsNamingBothTypes() throws {
    // given
    let (_, data) = try recorded()
    // when / then
    XCTAssertThrowsError(try ReactorRecording<OtherFlightReactor>(jsonLines: Array(data))) {
      error in
      XCTAssertEqual(
        (error as? RecordingError)?.description,
        "The recording was made from a reactor of type \(String(reflecting: FlightProfileReactor.self)); "
          + "it cannot be loaded as a recording of \(String(reflecting: OtherFlightReactor.self)).")
    }
  }

  func test_badLines_failWithTheirLineNumber_andATornLastLineKeepsWhatCameBefore() throws {
    // given
    let (_, data) = try recorded()
    var lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    // when: a mutation that does not decode
    var broken = lines
    broken[2] = "{\"mutation\":{\"setAge\":{\"_0\":3}}}"
    // then
    XCTAssertThrowsError(
      try ReactorRecording<FlightProfileReactor>(
        jsonLines: Array(broken.joined(separator: "\n").utf8))
    ) { error in
      guard case .undecodableAction(_, let line, let type, _)? = error as? RecordingError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(line, 3)
      XCTAssertEqual(type, String(reflecting: FlightProfileReactor.Mutation.self))
    }
    // when: a line that is neither
    broken = lines
    broken[1] = "{\"other\":1}"
    XCTAssertThrowsError(
      try ReactorRecording<FlightProfileReactor>(
        jsonLines: Array(broken.joined(separator: "\n").utf8))
    ) { error in
      guard case .malformedLine(_, let line, _)? = error as? RecordingError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(line, 2)
    }
    // when: the last line cut off mid-write
    lines[lines.count - 1] = String(lines[lines.count - 1].prefix(9))
    let torn = try ReactorRecording<FlightProfileReactor>(
      jsonLines: Array(lines.joined(separator: "\n").utf8))
    XCTAssertEqual(torn.events.count, 9)
    XCTAssertNotNil(torn.tornTail)
    // when: no header
    XCTAssertThrowsError(try ReactorRecording<FlightProfileReactor>(jsonLines: Array("{}\n".utf8)))
  }

  func test_replay_ofARecordingWithoutCheckpoints_failsSayingSo() {
    let failures = replayFailures(ReactorRecording([.mutation(.setName("a"), checkpoint: nil)]))
    XCTAssertEqual(
      failures,
      [
        "The recording has no state checkpoints, so replaying it checks nothing: export it "
          + "from a ReactorFlightRecorder."
      ])
  }

  func test_fileRoundTrip_andStop() throws {
    // given
    let reactor = FlightProfileReactor()
    let flight = ReactorFlightRecorder(recording: reactor)
    reactor.action.onNext(.rename("ann"))
    flight.stop()
    reactor.action.onNext(.rename("bob"))
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("reactor-flight-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    // when
    try flight.export(to: url)
    let loaded = try ReactorRecording<FlightProfileReactor>(contentsOf: url)
    // then: nothing after stop
    XCTAssertEqual(flight.recordedCount, 3)
    XCTAssertEqual(loaded.mutations, [.setName("ann"), .addTag("renamed")])
  }

  func test_threads_exportWhileTheReactorRecords() throws {
    // given
    let reactor = FlightProfileReactor()
    let flight = ReactorFlightRecorder(recording: reactor, capacity: 64)
    // when: one thread sends, another exports
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      for index in 0..<2_000 { reactor.action.onNext(.rename("n\(index)")) }
    }
    var exports = 0
    while group.wait(timeout: .now()) == .timedOut {
      _ = try flight.exportData()
      exports += 1
      if exports > 10_000 { break }
    }
    XCTAssertEqual(group.wait(timeout: .now() + 30), .success)
    // then
    let recording = try ReactorRecording<FlightProfileReactor>(
      jsonLines: Array(flight.exportData()))
    XCTAssertEqual(recording.events.count, 64)
    XCTAssertEqual(replayFailures(recording), [])
  }
}

private final class OtherFlightReactor: Reactor {
  typealias Action = Never
  typealias Mutation = FlightProfileReactor.Mutation
  typealias State = FlightProfileReactor.State
  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation> {}
}
