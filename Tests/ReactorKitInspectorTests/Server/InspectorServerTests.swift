import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

@testable import ReactorKitInspector

/// The server's routing, access rules and bounds, over real sockets.
final class InspectorServerTests: XCTestCase {
  private func host(_ inspector: Inspector) -> String { "Host: 127.0.0.1:\(inspector.port)\r\n" }

  private func exchange(_ inspector: Inspector, _ text: String) -> (text: String, closed: Bool) {
    guard let client = RawClient(port: inspector.port) else { return ("no connection", false) }
    client.send(text)
    return client.readAll(timeout: 5)
  }

  func test_url_isLoopbackWithTheTokenInTheFragment() throws {
    let inspector = try Inspector(limits: .testing)
    XCTAssertEqual(
      inspector.url.absoluteString, "http://127.0.0.1:\(inspector.port)/#token=\(inspector.token)")
    XCTAssertNotEqual(inspector.port, 0)
  }

  func test_init_givenPortInUse_throws() throws {
    let first = try Inspector(limits: .testing)
    XCTAssertThrowsError(try Inspector(port: first.port, limits: .testing))
  }

  func test_page_isServedWithoutTokenAndWithAStrictPolicy() throws {
    let inspector = try Inspector(limits: .testing)
    let client = HTTPClient(inspector: inspector)
    let page = try XCTUnwrap(client.get("/", token: false))
    XCTAssertEqual(page.status, 200)
    XCTAssertTrue(page.text.contains("<title>ReactorKit Inspector</title>"))
    XCTAssertFalse(page.text.contains("http://") && page.text.contains("<script src"), "no CDN")
    XCTAssertTrue(page.headers["content-security-policy"]?.contains("default-src 'none'") ?? false)
  }

  func test_head_answersWithTheHeadersOnly() throws {
    let inspector = try Inspector(limits: .testing)
    let response = exchange(
      inspector, "HEAD / HTTP/1.1\r\n\(host(inspector))Connection: close\r\n\r\n")
    XCTAssertEqual(RawClient.status(of: response.text), 200)
    XCTAssertTrue(response.text.contains("Content-Length: \(InspectorPage.bytes.count)"))
    XCTAssertTrue(response.text.hasSuffix("\r\n\r\n"), "no body after the headers")
  }

  func test_api_withoutToken_is401() throws {
    let inspector = try Inspector(limits: .testing)
    let client = HTTPClient(inspector: inspector)
    for path in ["/api/sources", "/api/events?since=0", "/api/state", "/api/export"] {
      XCTAssertEqual(client.get(path, token: false)?.status, 401, path)
    }
    XCTAssertEqual(
      client.get("/api/sources?token=\(String(repeating: "0", count: 32))", token: false)?.status,
      401)
    XCTAssertEqual(client.get("/api/sources?token=\(inspector.token)", token: false)?.status, 200)
  }

  func test_api_foreignHost_is403() throws {
    let inspector = try Inspector(limits: .testing)
    let response = exchange(
      inspector,
      "GET /api/sources HTTP/1.1\r\nHost: attacker.example:\(inspector.port)\r\n"
        + "Authorization: Bearer \(inspector.token)\r\n\r\n")
    XCTAssertEqual(RawClient.status(of: response.text), 403)
  }

  func test_post_withoutOrigin_is403AndChangesNothing() throws {
    let (inspector, store) = try makeInspectedStore()
    store.dispatch(NotesAction.increment)
    let body = #"{"source":"store","seq":1}"#
    let response = exchange(
      inspector,
      "POST /api/pause HTTP/1.1\r\n\(host(inspector))Authorization: Bearer \(inspector.token)\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    XCTAssertEqual(RawClient.status(of: response.text), 403)
    store.dispatch(NotesAction.increment)
    XCTAssertEqual(HTTPClient(inspector: inspector).events().count, 3, "not paused")
  }

  func test_routing_unknownPathIs404AndWrongMethodIs405() throws {
    let inspector = try Inspector(limits: .testing)
    let client = HTTPClient(inspector: inspector)
    XCTAssertEqual(client.get("/api/nothing")?.status, 404)
    XCTAssertEqual(client.get("/api/jump")?.status, 405)
    XCTAssertEqual(
      client.send("DELETE", "/api/events", headers: ["Origin": client.base])?.status, 405)
  }

  /// The deprecated half-wiring (a middleware without the time-travel reducer) is refused
  /// with a message that names the missing step.
  @available(*, deprecated)
  func test_jump_withoutTimeTravelReducer_is409() throws {
    let inspector = try Inspector(limits: .testing)
    let store = Store(
      reducer: NotesState.reducer, state: NotesState(),
      middleware: [inspector.middleware(source: "plain")])
    store.dispatch(NotesAction.increment)
    let response = HTTPClient(inspector: inspector).post(
      "/api/jump", json: #"{"source":"plain","seq":2}"#)
    XCTAssertEqual(response?.status, 409)
    XCTAssertTrue(
      String(decoding: response?.body ?? Data(), as: UTF8.self).contains("inspector.forStore"))
  }

  /// The other deprecated half-wiring (the time-travel reducer without the middleware) says
  /// so in the timeline at the store's first action.
  @available(*, deprecated)
  func test_timeTravelReducerWithoutMiddleware_notesTheMissingStep() throws {
    let inspector = try Inspector(limits: .testing)
    let store = Store(
      reducer: inspector.reducer(NotesState.reducer, source: "half"), state: NotesState())
    store.dispatch(NotesAction.increment)
    store.dispatch(NotesAction.increment)
    let notes = HTTPClient(inspector: inspector).events().compactMap { $0["note"] as? String }
    XCTAssertEqual(notes.filter { $0.contains("inspector.forStore(source: \"half\")") }.count, 1)
  }

  func test_jump_toAnEventNoLongerInTheRing_is404() throws {
    let (inspector, store) = try makeInspectedStore(capacity: 2)
    for _ in 0..<5 { store.dispatch(NotesAction.increment) }
    let client = HTTPClient(inspector: inspector)
    XCTAssertEqual(client.post("/api/jump", json: #"{"source":"store","seq":1}"#)?.status, 404)
    XCTAssertEqual(store.currentState.count, 5)
  }

  func test_keepAlive_servesSeveralRequestsOnOneConnection() throws {
    let inspector = try Inspector(limits: .testing)
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    let request =
      "GET /api/sources HTTP/1.1\r\n\(host(inspector))Authorization: Bearer \(inspector.token)\r\n\r\n"
    client.send(request + request)
    let text = client.read(until: "actionTypes\":[]}HTTP/1.1 200", timeout: 5)
    XCTAssertEqual(text.components(separatedBy: "HTTP/1.1 200 OK").count - 1, 2, text)
  }

  func test_limits_oversizedHeaders_431AndClosed() throws {
    let inspector = try Inspector(limits: .testing)
    let response = exchange(
      inspector,
      "GET / HTTP/1.1\r\n\(host(inspector))X-Pad: \(String(repeating: "p", count: 5_000))\r\n\r\n")
    XCTAssertEqual(RawClient.status(of: response.text), 431)
    XCTAssertTrue(response.closed)
  }

  func test_limits_oversizedBody_413AndClosed() throws {
    let inspector = try Inspector(limits: .testing)
    let response = exchange(
      inspector,
      "POST /api/import HTTP/1.1\r\n\(host(inspector))Content-Length: \(1 << 20)\r\n\r\n")
    XCTAssertEqual(RawClient.status(of: response.text), 413)
    XCTAssertTrue(response.closed)
  }

  func test_limits_malformedRequest_400AndClosed() throws {
    let inspector = try Inspector(limits: .testing)
    let response = exchange(inspector, "HELLO\r\n\r\n")
    XCTAssertEqual(RawClient.status(of: response.text), 400)
    XCTAssertTrue(response.closed)
  }

  func test_limits_slowRequest_408AndClosed() throws {
    let inspector = try Inspector(limits: .testing)  // one second per request
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    client.send("GET / HTTP/1.1\r\n")
    let response = client.readAll(timeout: 5)
    XCTAssertEqual(RawClient.status(of: response.text), 408)
    XCTAssertTrue(response.closed)
  }

  func test_limits_idleConnection_isClosed() throws {
    let inspector = try Inspector(limits: .testing)  // two seconds idle
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    let started = Date()
    let response = client.readAll(timeout: 6)
    XCTAssertTrue(response.closed)
    XCTAssertEqual(response.text, "")
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
  }

  func test_limits_everyConnectionBusy_503ThenServesAgain() throws {
    // given two connections, both busy: a stream, and an authenticated keep-alive connection
    // part-way through its next request (idle ones would be closed to make room)
    var limits = InspectorLimits.testing
    limits.maximumConnections = 2
    let inspector = try Inspector(limits: limits)
    var stream = RawClient(port: inspector.port)
    stream?.send("GET /api/events?token=\(inspector.token) HTTP/1.1\r\n\(host(inspector))\r\n")
    XCTAssertTrue(stream?.read(until: "reactorkit inspector").contains("200 OK") ?? false)
    let busy = try XCTUnwrap(RawClient(port: inspector.port))
    busy.send(
      "GET /api/sources HTTP/1.1\r\n\(host(inspector))Authorization: Bearer \(inspector.token)"
        + "\r\n\r\nGET /api/sources HTTP/1.1\r\n")
    XCTAssertTrue(busy.read(until: "actionTypes").contains("200 OK"))
    // when
    let refused = exchange(inspector, "GET / HTTP/1.1\r\n\(host(inspector))\r\n")
    // then
    XCTAssertEqual(RawClient.status(of: refused.text), 503)
    stream = nil  // its client hangs up
    XCTAssertTrue(waitUntil { inspector.server.connectionCount(.stream) == 0 })
    XCTAssertEqual(HTTPClient(inspector: inspector).get("/", token: false)?.status, 200)
  }

  func test_halfClosedClient_stillGetsItsResponse() throws {
    let inspector = try Inspector(limits: .testing)
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    client.send("GET / HTTP/1.1\r\n\(host(inspector))\r\n")
    client.finishSending()
    let response = client.readAll(timeout: 5)
    XCTAssertEqual(RawClient.status(of: response.text), 200)
    XCTAssertTrue(response.closed)
  }

  func test_close_endsOpenEventStreams() throws {
    let inspector = try Inspector(limits: .testing)
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    client.send(
      "GET /api/events?token=\(inspector.token) HTTP/1.1\r\n\(host(inspector))\r\n")
    XCTAssertTrue(client.read(until: "reactorkit inspector").contains("200 OK"))
    inspector.close()
    XCTAssertTrue(client.readAll(timeout: 5).closed)
    XCTAssertTrue(waitUntil { inspector.server.activeConnections.load(ordering: .relaxed) == 0 })
  }

  func test_slowEventStreamClient_seesAGapMarker() throws {
    // given a ring of 4 and a stream that starts after 10 events
    let (inspector, store) = try makeInspectedStore(capacity: 4)
    for _ in 0..<10 { store.dispatch(NotesAction.increment) }
    // when
    let events = HTTPClient(inspector: inspector).events(since: 0)
    // then
    XCTAssertEqual(events.first?["kind"] as? String, "gap")
    XCTAssertEqual(events.first?["missed"] as? Int, 7, "the initial state and six actions")
    XCTAssertEqual(events.dropFirst().compactMap { $0["seq"] as? Int }, [8, 9, 10, 11])
  }
}
