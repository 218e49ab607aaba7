import Foundation
import ReactorKit

/// Maps requests to the inspector's endpoints, after ``RequestAuthorization``:
///
/// | Method and path | Answer |
/// |---|---|
/// | `GET /` | the page |
/// | `GET /api/sources` | `{paused, latest, capacity, sources: [{name, kind, canJump, canDispatch, jumpedTo}], actionTypes}` |
/// | `GET /api/events?since=N[&follow=0]` | `text/event-stream` of the events after N |
/// | `GET /api/state?source=S[&seq=N]` | `{source, seq, live, state}`: the current state, or the one after event N |
/// | `POST /api/jump` | `{"source": S, "seq": N}` or `{"source": S, "live": true}` |
/// | `POST /api/dispatch` | `{"source": S, "type": T, "action": {…}}` (a recording line) |
/// | `POST /api/pause`, `POST /api/resume` | stop or resume recording |
/// | `GET /api/export?source=S` | the source's recorded actions as an `ActionRecording` (JSON lines) |
/// | `POST /api/import?source=S` | a recording, replayed into the source |
struct InspectorRouter: Sendable {
  let core: InspectorCore
  let authorization: RequestAuthorization
  let page: [UInt8]

  private var renderer: EventRenderer { EventRenderer(redaction: core.redaction, ring: core.ring) }

  func handle(_ request: HTTPRequest, server: HTTPServer?) -> RouteResult {
    switch authorization.check(request) {
    case .forbidden(let reason): return .response(.error(403, reason))
    case .unauthorized:
      var response = HTTPResponse.error(401, "a token is required")
      response.headers.append(("WWW-Authenticate", "Bearer realm=\"reactorkit-inspector\""))
      return .response(response)
    case .allowed: break
    }
    switch (request.method, request.path) {
    case ("GET", "/"), ("GET", "/index.html"), ("HEAD", "/"):
      return .response(pageResponse())
    case ("GET", "/api/sources"): return .response(sources())
    case ("GET", "/api/events"): return events(request, server: server)
    case ("GET", "/api/state"): return .response(state(request))
    case ("POST", "/api/jump"): return .response(jump(request))
    case ("POST", "/api/dispatch"): return .response(dispatch(request))
    case ("POST", "/api/pause"):
      core.setPaused(true)
      return .response(.json(200, #"{"paused":true}"#))
    case ("POST", "/api/resume"):
      core.setPaused(false)
      return .response(.json(200, #"{"paused":false}"#))
    case ("GET", "/api/export"): return .response(export(request))
    case ("POST", "/api/import"): return .response(importRecording(request))
    case (_, "/"), (_, "/api/sources"), (_, "/api/events"), (_, "/api/state"), (_, "/api/jump"),
      (_, "/api/dispatch"), (_, "/api/pause"), (_, "/api/resume"), (_, "/api/export"),
      (_, "/api/import"):
      return .response(.error(405, "\(request.method) is not allowed on \(request.path)"))
    default:
      return .response(.error(404, "no such endpoint: \(request.path)"))
    }
  }

  // MARK: - Page

  private func pageResponse() -> HTTPResponse {
    HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"),
        (
          "Content-Security-Policy",
          "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
            + "connect-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'none'"
        ),
      ], body: page)
  }

  // MARK: - Reading

  private func sources() -> HTTPResponse {
    var json = JSONWriter()
    json.object { json in
      json.field("paused", core.isPaused)
      json.field("latest", core.ring.latestSequence)
      json.field("capacity", core.ring.capacity)
      json.key("sources")
      json.array { list in
        for source in core.allSources {
          list.object { item in
            item.field("name", source.name)
            item.field("kind", source.kindName)
            item.field("canJump", source.canJump)
            item.field("canDispatch", source.canDispatch)
            if let target = source.jumpTarget { item.field("jumpedTo", target) }
          }
        }
      }
      json.key("actionTypes")
      json.array { list in
        for name in core.registry?.names ?? [] { list.value(name) }
      }
    }
    return .json(200, json.text)
  }

  private func events(_ request: HTTPRequest, server: HTTPServer?) -> RouteResult {
    let start = request.query["since"] ?? request.header("last-event-id") ?? "0"
    guard let since = UInt64(start) else {
      return .response(.error(400, "since must be a sequence number"))
    }
    let follow = request.query["follow"] != "0"
    let stream = EventStream(
      ring: core.ring, renderer: renderer, keepAliveInterval: core.limits.keepAliveInterval)
    return .stream(
      headers: [
        ("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no"),
      ],
      body: { writer in stream.run(since: since, follow: follow, writer: writer) })
  }

  private func state(_ request: HTTPRequest) -> HTTPResponse {
    guard let name = request.query["source"] ?? core.allSources.first?.name else {
      return .error(404, "no source is attached")
    }
    var json = JSONWriter()
    if let text = request.query["seq"] {
      guard let sequence = UInt64(text) else { return .error(400, "seq must be a number") }
      guard let event = core.ring.event(sequence), event.source.name == name,
        let after = event.after
      else {
        return .error(404, "event #\(sequence) of \(name) with a state is not in the timeline")
      }
      json.object { json in
        json.field("source", name)
        json.field("seq", sequence)
        json.field("live", false)
        json.field("state", raw: renderer.stateJSON(after, source: event.source))
      }
      return .json(200, json.text)
    }
    guard let source = core.source(named: name) else {
      return .error(404, "no source named \(name)")
    }
    guard let current = source.currentState() else {
      return .error(409, "\(name) has no state yet")
    }
    json.object { json in
      json.field("source", name)
      json.field("seq", core.ring.latestSequence)
      json.field("live", source.jumpTarget == nil)
      if let target = source.jumpTarget { json.field("jumpedTo", target) }
      json.field("state", raw: renderer.stateJSON(current, source: source.info))
    }
    return .json(200, json.text)
  }

  // MARK: - Steering

  private struct JumpBody: Decodable {
    var source: String?
    var seq: UInt64?
    var live: Bool?
  }

  private func jump(_ request: HTTPRequest) -> HTTPResponse {
    guard let body = try? JSONDecoder().decode(JumpBody.self, from: Data(request.body)) else {
      return .error(400, #"expected {"source": NAME, "seq": N} or {"source": NAME, "live": true}"#)
    }
    guard let name = body.source ?? core.allSources.first(where: { $0.canJump })?.name,
      let source = core.source(named: name)
    else {
      return .error(404, "no such source")
    }
    guard source.canJump else {
      return .error(
        409,
        "\(name) can't time travel: install the inspector in the store with "
          + "'plugins: [inspector.forStore(source:)]', which also wraps its reducer")
    }
    if body.live == true {
      _ = source.goLive()
      return .json(200, #"{"live":true}"#)
    }
    guard let sequence = body.seq else { return .error(400, "seq is missing") }
    guard let event = core.ring.event(sequence), event.source === source.info,
      let state = event.after
    else {
      return .error(404, "event #\(sequence) of \(name) with a state is not in the timeline")
    }
    guard source.jump(to: sequence, state: state) else {
      return Self.notConnected(name)
    }
    return .json(200, "{\"live\":false,\"jumpedTo\":\(sequence)}")
  }

  private func dispatch(_ request: HTTPRequest) -> HTTPResponse {
    guard let registry = core.registry else { return Self.noRegistry(for: "dispatching") }
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(request.body))
        as? [String: Any],
      let type = object["type"] as? String, let action = object["action"]
    else {
      return .error(400, #"expected {"source": NAME, "type": TYPE, "action": {…}}"#)
    }
    guard case (let name, let source)? = dispatchTarget(named: object["source"] as? String) else {
      return Self.noDispatchTarget
    }
    let decoded: [any Action]
    do {
      let line = try JSONSerialization.data(
        withJSONObject: ["type": type, "action": action], options: [.fragmentsAllowed])
      let bytes = try ActionRecording([]).jsonLines(registry: registry) + Array(line)
      decoded = try ActionRecording(jsonLines: bytes, registry: registry).actions
    } catch let error as RecordingError {
      return .error(422, Self.message(for: error, from: .dispatchForm))
    } catch {
      return .error(400, "the action is not valid JSON")
    }
    guard let first = decoded.first, source.dispatch(first) else {
      return Self.notConnected(name)
    }
    return .json(200, "{\"dispatched\":\(JSONWriter.quoted(type))}")
  }

  // MARK: - Recordings

  private func export(_ request: HTTPRequest) -> HTTPResponse {
    guard let registry = core.registry else { return Self.noRegistry(for: "exporting") }
    guard
      let name = request.query["source"]
        ?? core.allSources.first(where: { $0.kindName == "store" })?.name
    else {
      return .error(404, "no store is attached")
    }
    // The name's first 100 scalars, so the suffix survives the file name's bound.
    let fileName = String(String.UnicodeScalarView(name.unicodeScalars.prefix(100)))
    let exporter = RecordingExporter(core: core, registry: registry)
    let (bytes, skipped) = exporter.export(source: name)
    return HTTPResponse(
      status: 200,
      headers: [
        ("Content-Type", "application/x-ndjson; charset=utf-8"),
        ("Content-Disposition", HTTPResponse.attachment(filename: "\(fileName)-recording.jsonl")),
        ("X-Skipped-Actions", String(skipped)),
      ], body: bytes)
  }

  private func importRecording(_ request: HTTPRequest) -> HTTPResponse {
    guard let registry = core.registry else { return Self.noRegistry(for: "importing") }
    guard case (let name, let source)? = dispatchTarget(named: request.query["source"]) else {
      return Self.noDispatchTarget
    }
    let recording: ActionRecording
    do {
      recording = try ActionRecording(
        jsonLines: request.body, registry: registry, source: "the imported file")
    } catch {
      return .error(422, Self.message(for: error, from: .importedFile))
    }
    if let recorded = recording.stateType, let own = source.info.stateType, recorded != own {
      return .error(
        422,
        Self.message(
          for: .stateTypeMismatch(recorded: recorded, store: own), from: .importedFile))
    }
    // A last line cut off mid-write is dropped, and the user is told (the page shows the
    // warning; the timeline keeps a note).
    let warning = recording.tornTail.map { Self.message(for: $0, from: .importedFile) }
    core.note(
      "\(name): replaying an imported recording of \(recording.actions.count) actions"
        + (warning.map { ". " + $0 } ?? ""))
    for action in recording.actions { _ = source.dispatch(action) }
    var json = JSONWriter()
    json.object { json in
      json.field("replayed", recording.actions.count)
      if case .tornLastLine(_, let line, let length)? = recording.tornTail {
        json.key("droppedLastLine")
        json.object { dropped in
          dropped.field("line", line)
          dropped.field("bytes", length)
        }
        json.field("warning", warning)
      }
    }
    return .json(200, json.text)
  }

  /// The source a dispatch or an import goes to: the one named `name`, or the first that
  /// accepts actions; `nil` when that source does not accept actions.
  private func dispatchTarget(named name: String?) -> (String, any InspectedSource)? {
    guard let name = name ?? core.allSources.first(where: { $0.canDispatch })?.name,
      let source = core.source(named: name), source.canDispatch
    else { return nil }
    return (name, source)
  }

  // MARK: - Messages

  /// The answer to a request that `what` (dispatching, exporting, importing) and finds no
  /// `ActionRegistry`.
  private static func noRegistry(for what: String) -> HTTPResponse {
    .error(409, "\(what) needs an ActionRegistry: pass one to Inspector(registry:)")
  }

  /// The answer when the source `name` has no store to reach yet.
  private static func notConnected(_ name: String) -> HTTPResponse {
    .error(409, "\(name) is not connected to its store yet")
  }

  /// The answer to a dispatch or an import that finds no source to take its actions.
  private static var noDispatchTarget: HTTPResponse {
    .error(404, "no store accepts actions under that name")
  }

  /// What the user sent a recording line with.
  enum RecordingOrigin {
    /// The page's dispatch form: one action, its type and JSON typed in by hand.
    case dispatchForm
    /// A recording file imported from the page (or `POST /api/import`).
    case importedFile
  }

  /// `error` as a sentence about what the user did: the dispatch form's action, or the line of
  /// the imported file.
  static func message(for error: RecordingError, from origin: RecordingOrigin) -> String {
    /// `reason` as the end of a sentence: one final period.
    func ending(_ reason: String) -> String {
      var text = reason
      while text.hasSuffix(".") { text.removeLast() }
      return text + "."
    }
    switch (origin, error) {
    case (.dispatchForm, .unknownActionType(_, _, let type)):
      return "The dispatch form's action type \"\(type)\" is not registered in the inspector's "
        + "ActionRegistry."
    case (.dispatchForm, .undecodableAction(_, _, let type, let reason)):
      return "The dispatch form's action does not decode as \(type): " + ending(reason)
    case (.dispatchForm, .malformedLine(_, _, let reason)):
      return "The dispatch form's action is not valid: " + ending(reason)
    case (.dispatchForm, .nestingTooDeep(_, _, let limit)):
      return "The dispatch form's action nests deeper than \(limit) levels."
    case (.dispatchForm, .tooLarge(_, let size, let limit)):
      return "The dispatch form's action is too large (\(size) bytes; the limit is \(limit))."
    case (.importedFile, .tooLarge(_, let size, let limit)):
      return "The imported file is too large (\(size) bytes; the limit is \(limit))."
    case (.importedFile, .missingHeader):
      return "The imported file is not a recording: its first line must be "
        + "{\"format\":\"reactorkit.actions\",\"version\":\(ActionRecording.formatVersion)}."
    case (.importedFile, .unsupportedFormatVersion(_, let found, let supported)):
      return "The imported file has format version \(found); the inspector reads versions 1 "
        + "to \(supported)."
    case (.importedFile, .stateTypeMismatch(let recorded, let own)):
      return "The imported file was recorded from a store of state type \(recorded); this "
        + "store's state type is \(own), so nothing was replayed."
    case (.importedFile, .nestingTooDeep(_, let line, let limit)):
      return "The imported file, line \(line), nests deeper than \(limit) levels."
    case (.importedFile, .malformedLine(_, let line, let reason)):
      return "The imported file, line \(line), is not an action: " + ending(reason)
    case (.importedFile, .unknownActionType(_, let line, let type)):
      return "The imported file, line \(line), has an action of type \"\(type)\", which is not "
        + "registered in the inspector's ActionRegistry."
    case (.importedFile, .undecodableAction(_, let line, let type, let reason)):
      return "The imported file, line \(line): the \(type) action does not decode: "
        + ending(reason)
    case (.importedFile, .tornLastLine(_, let line, let length)):
      return "The imported file's last line (line \(line), \(length) bytes) was cut off and "
        + "was not replayed; the actions before it were."
    default:
      return error.description
    }
  }
}
