import Foundation
import ReactorKit
import ReactorKitInspector
import XCTest

/// A live inspector driven with URLSession, as a page would drive it.
final class InspectorEndToEndTests: XCTestCase {
  func test_events_dispatchInTheApp_appearsInTheTimelineWithDiffAndState() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    // when
    store.dispatch(NotesAction.add("milk"))
    store.dispatch(NotesAction.increment)
    // then
    let all = client.events()
    XCTAssertEqual(all.first?["note"] as? String, "store: initial state")
    let events = Array(all.dropFirst())
    XCTAssertEqual(events.count, 2, "two actions were dispatched: \(events)")
    XCTAssertEqual(events.map { $0["seq"] as? Int }, [2, 3])
    XCTAssertEqual(events.first?["action"] as? String, #"NotesAction.add("milk")"#)
    XCTAssertEqual(events.first?["source"] as? String, "store")
    XCTAssertEqual(events.first?["kind"] as? String, "action")
    let diff = events.first?["diff"] as? [[String: Any]]
    XCTAssertEqual(diff?.first?["path"] as? String, ".notes[0]")
    XCTAssertEqual(diff?.first?["new"] as? String, #""milk""#)
    XCTAssertEqual(events.last?["hasState"] as? Bool, true)
    let state = client.get("/api/state?source=store&seq=3")?.json["state"] as? [String: Any]
    XCTAssertEqual(state?["t"] as? String, "NotesState")
  }

  func test_jump_toAnEarlierEvent_setsTheStoresStateAndLiveRestoresIt() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    // #1 is the initial state
    store.dispatch(NotesAction.increment)  // #2: count 1
    store.dispatch(NotesAction.increment)  // #3: count 2
    store.dispatch(NotesAction.increment)  // #4: count 3
    // when
    let jump = client.post("/api/jump", json: #"{"source":"store","seq":2}"#)
    // then
    XCTAssertEqual(jump?.status, 200, jump?.text ?? "no response")
    XCTAssertEqual(store.currentState.count, 1)
    let state = client.get("/api/state?source=store")
    XCTAssertEqual(state?.json["live"] as? Bool, false)
    XCTAssertEqual(state?.json["jumpedTo"] as? Int, 2)
    // when
    let live = client.post("/api/jump", json: #"{"source":"store","live":true}"#)
    // then
    XCTAssertEqual(live?.status, 200)
    XCTAssertEqual(store.currentState.count, 3)
    XCTAssertEqual(client.get("/api/state?source=store")?.json["live"] as? Bool, true)
    let kinds = client.events().compactMap { $0["kind"] as? String }
    XCTAssertEqual(kinds, ["note", "action", "action", "action", "jump", "jump"])
  }

  func test_jump_thenAnAppAction_continuesFromThePastState() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    store.dispatch(NotesAction.increment)
    store.dispatch(NotesAction.increment)
    XCTAssertEqual(client.post("/api/jump", json: #"{"source":"store","seq":2}"#)?.status, 200)
    // when
    store.dispatch(NotesAction.add("from the past"))
    // then
    XCTAssertEqual(store.currentState.count, 1)
    XCTAssertEqual(store.currentState.notes, ["from the past"])
    XCTAssertEqual(client.get("/api/state?source=store")?.json["live"] as? Bool, true)
  }

  func test_dispatch_typedJSON_isDecodedWithTheRegistryAndReduced() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    // when
    let response = client.post(
      "/api/dispatch",
      json: #"{"source":"store","type":"NotesAction","action":{"add":{"_0":"tea"}}}"#)
    // then
    XCTAssertEqual(response?.status, 200, response?.text ?? "no response")
    XCTAssertEqual(store.currentState.notes, ["tea"])
    XCTAssertEqual(client.events().last?["action"] as? String, #"NotesAction.add("tea")"#)
  }

  func test_dispatch_unknownTypeOrBadJSON_isRejected() throws {
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    XCTAssertEqual(
      client.post("/api/dispatch", json: #"{"type":"Nope","action":{}}"#)?.status, 422)
    XCTAssertEqual(client.post("/api/dispatch", json: "{not json")?.status, 400)
    XCTAssertEqual(store.currentState, NotesState())
  }

  func test_redaction_secretsNeverAppearInEventsStateOrExport() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    // when
    store.dispatch(NotesAction.login(user: "grace", password: "hunter2"))
    // then
    let stream = client.get("/api/events?since=0&follow=0")?.text ?? ""
    XCTAssertTrue(stream.contains("grace"))
    XCTAssertFalse(stream.contains("hunter2"), stream)
    XCTAssertFalse(stream.contains("s3cr3t-token"), stream)
    XCTAssertFalse(client.get("/api/state?source=store")?.text.contains("s3cr3t-token") ?? true)
    let export = client.get("/api/export?source=store")?.text ?? ""
    XCTAssertTrue(export.contains("grace"), export)
    XCTAssertFalse(export.contains("hunter2"), export)
  }

  func test_exportThenImport_replaysTheActionsIntoTheStore() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    store.dispatch(NotesAction.add("a"))
    store.dispatch(NotesAction.increment)
    let export = try XCTUnwrap(client.get("/api/export?source=store"))
    XCTAssertEqual(export.status, 200)
    XCTAssertEqual(export.text.split(separator: "\n").count, 3, export.text)
    // when
    let imported = client.send(
      "POST", "/api/import?source=store", body: export.body,
      headers: ["Content-Type": "application/x-ndjson"])
    // then
    XCTAssertEqual(imported?.status, 200, imported?.text ?? "no response")
    XCTAssertEqual(store.currentState.notes, ["a", "a"])
    XCTAssertEqual(store.currentState.count, 2)
  }

  func test_pause_stopsRecordingAndResumeNotesWhatWasSkipped() throws {
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    XCTAssertEqual(client.post("/api/pause", json: "")?.status, 200)
    store.dispatch(NotesAction.increment)
    store.dispatch(NotesAction.increment)
    XCTAssertEqual(client.events().count, 1, "only the initial state")
    XCTAssertEqual(client.post("/api/resume", json: "")?.status, 200)
    store.dispatch(NotesAction.increment)
    let events = Array(client.events().dropFirst())
    XCTAssertEqual(events.compactMap { $0["kind"] as? String }, ["note", "action"])
    XCTAssertTrue((events.first?["note"] as? String ?? "").contains("2 events"))
    XCTAssertEqual(store.currentState.count, 3)
  }

  func test_reactor_attached_recordsActionsAndMutationsAsItsOwnSource() throws {
    // given
    let inspector = try Inspector(limits: .testing)
    let client = HTTPClient(inspector: inspector)
    let reactor = TallyReactor()
    reactor.install(inspector, source: "tally")
    // when
    reactor.action.onNext(.add(2))
    // then
    let events = client.events()
    XCTAssertEqual(events.compactMap { $0["kind"] as? String }, ["action", "mutation"])
    XCTAssertEqual(events.compactMap { $0["source"] as? String }, ["tally", "tally"])
    XCTAssertEqual(
      (events.last?["diff"] as? [[String: Any]])?.first?["new"] as? String, "2")
    let sources = client.get("/api/sources")?.json["sources"] as? [[String: Any]]
    XCTAssertEqual(sources?.first?["kind"] as? String, "reactor")
    XCTAssertEqual(client.get("/api/state?source=tally")?.status, 200)
  }

  func test_liveStream_followsNewEventsInOrder() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    client.send(
      "GET /api/events?since=0&token=\(inspector.token) HTTP/1.1\r\nHost: 127.0.0.1:\(inspector.port)\r\n\r\n"
    )
    let head = client.read(until: "reactorkit inspector")
    XCTAssertTrue(head.contains("text/event-stream"))
    // when
    for _ in 0..<5 { store.dispatch(NotesAction.increment) }
    // then
    let text = head + client.read(until: "id: 6\n")
    let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }.map { $0.dropFirst(4) }
    XCTAssertEqual(ids, ["1", "2", "3", "4", "5", "6"])
  }
}

/// A reactor whose mutations add to a total.
final class TallyReactor: Reactor {
  enum Action { case add(Int) }
  struct State: Equatable { var total = 0 }
  let initialState = State()

  func reduce(state: State, mutation: Action) -> State {
    var state = state
    if case .add(let amount) = mutation { state.total += amount }
    return state
  }
}
