import Foundation
import ReactorKit
import ReactorKitInspector
import XCTest

/// What the page is told about the actions a user sends: a bad action from the dispatch form,
/// a bad or cut-off line of an imported file (issue 21 item 6, issue 22 item 4).
final class InspectorRecordingInputTests: XCTestCase {
  private let header = #"{"format":"reactorkit.actions","version":1}"#

  func test_dispatch_actionThatDoesNotDecode_isReportedAsTheDispatchFormsAction() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    // when
    let response = try XCTUnwrap(
      client.post(
        "/api/dispatch",
        json: #"{"source":"store","type":"NotesAction","action":{"add":{"_0":42}}}"#))
    // then
    XCTAssertEqual(response.status, 422, response.text)
    let message = try XCTUnwrap(response.json["error"] as? String, response.text)
    XCTAssertTrue(
      message.hasPrefix("The dispatch form's action does not decode as NotesAction: "), message)
    XCTAssertFalse(message.contains("(data)"), message)
    XCTAssertFalse(message.contains("line"), message)
    XCTAssertFalse(message.contains(".."), message)
    XCTAssertEqual(store.currentState, NotesState())
  }

  func test_dispatch_unknownType_namesTheDispatchForm() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    // when
    let response = try XCTUnwrap(
      client.post("/api/dispatch", json: #"{"source":"store","type":"Nope","action":{}}"#))
    // then
    XCTAssertEqual(response.status, 422)
    XCTAssertEqual(
      response.json["error"] as? String,
      "The dispatch form's action type \"Nope\" is not registered in the inspector's "
        + "ActionRegistry.")
    XCTAssertEqual(store.currentState, NotesState())
  }

  func test_import_lastLineCutOff_isReplayedUpToItAndReported() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    let torn =
      header + "\n" + #"{"action":{"increment":{}},"type":"NotesAction"}"# + "\n"
      + #"{"action":{"add":{"_0":"hal"#
    // when
    let response = try XCTUnwrap(
      client.send(
        "POST", "/api/import?source=store", body: Data(torn.utf8),
        headers: ["Content-Type": "application/x-ndjson"]))
    // then
    XCTAssertEqual(response.status, 200, response.text)
    XCTAssertEqual(response.json["replayed"] as? Int, 1)
    let dropped = try XCTUnwrap(response.json["droppedLastLine"] as? [String: Any], response.text)
    XCTAssertEqual(dropped["line"] as? Int, 3)
    XCTAssertEqual(dropped["bytes"] as? Int, 27)
    let warning = try XCTUnwrap(response.json["warning"] as? String)
    XCTAssertTrue(warning.contains("line 3"), warning)
    XCTAssertTrue(warning.contains("cut off"), warning)
    XCTAssertEqual(store.currentState.count, 1)
    let notes = client.events().compactMap { $0["note"] as? String }
    XCTAssertTrue(notes.contains { $0.contains("cut off") }, "\(notes)")
  }

  func test_import_badLine_namesTheImportedFileAndTheLine() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    let bad = header + "\n" + #"{"action":{"add":{"_0":1}},"type":"NotesAction"}"# + "\n"
    // when
    let response = try XCTUnwrap(
      client.send(
        "POST", "/api/import?source=store", body: Data(bad.utf8),
        headers: ["Content-Type": "application/x-ndjson"]))
    // then
    XCTAssertEqual(response.status, 422)
    let message = try XCTUnwrap(response.json["error"] as? String)
    XCTAssertTrue(
      message.hasPrefix("The imported file, line 2: the NotesAction action does not decode: "),
      message)
    XCTAssertFalse(message.contains(".."), message)
    XCTAssertEqual(store.currentState, NotesState())
  }

  func test_import_ofAnotherStateType_isRefusedNamingBoth_andReplaysNothing() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    let other =
      #"{"format":"reactorkit.actions","state":"OtherApp.OtherState","version":2}"# + "\n"
      + #"{"action":{"increment":{}},"type":"NotesAction"}"# + "\n"
    // when
    let response = try XCTUnwrap(
      client.send(
        "POST", "/api/import?source=store", body: Data(other.utf8),
        headers: ["Content-Type": "application/x-ndjson"]))
    // then
    XCTAssertEqual(response.status, 422, response.text)
    let message = try XCTUnwrap(response.json["error"] as? String)
    XCTAssertTrue(message.contains("OtherApp.OtherState"), message)
    XCTAssertTrue(message.contains(String(reflecting: NotesState.self)), message)
    XCTAssertEqual(store.currentState, NotesState())
  }

  func test_export_namesTheStoresStateType_andImportsBack() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    let client = HTTPClient(inspector: inspector)
    store.dispatch(NotesAction.increment)
    // when
    let exported = try XCTUnwrap(client.get("/api/export?source=store"))
    // then
    let firstLine = exported.text.split(separator: "\n").first.map(String.init) ?? ""
    XCTAssertTrue(
      firstLine.contains(#""state":"\#(String(reflecting: NotesState.self))""#), firstLine)
    // the same format as a FlightRecorder's export: a start state and a checkpoint per action
    let recording = try ActionRecording(
      jsonLines: Array(exported.body), registry: notesRegistry)
    XCTAssertEqual(recording.actions.count, 1)
    XCTAssertEqual(recording.checkpoints.count, 1)
    XCTAssertEqual(recording.checkpoints.first??.changed, [".count"])
    XCTAssertNotNil(recording.start)
    let response = try XCTUnwrap(
      client.send(
        "POST", "/api/import?source=store", body: Data(exported.text.utf8),
        headers: ["Content-Type": "application/x-ndjson"]))
    XCTAssertEqual(response.status, 200, response.text)
  }
}
