import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

@testable import ReactorKitInspector

/// Clients without the token can't hold the server's connections, and open event streams leave
/// room for API requests (issue 22, item 3). Every wait is bounded.
final class InspectorConnectionSlotsTests: XCTestCase {
  private func host(_ inspector: Inspector) -> String { "Host: 127.0.0.1:\(inspector.port)\r\n" }

  /// The test limits with every timeout far longer than the bound the tests check, so a
  /// request can only be answered in time because a slot was made for it, never because
  /// the idle connections timed out.
  private var limits: InspectorLimits {
    var limits = InspectorLimits.testing
    limits.idleTimeout = .seconds(20)
    limits.requestTimeout = .seconds(20)
    limits.unauthenticatedTimeout = .seconds(20)
    return limits
  }

  /// The bound on an answer under load (the thread sanitizer on a shared two-core machine).
  private let bound: TimeInterval = 3

  /// Opens an event stream with the token in the query; returns the client and whether the
  /// server answered 200.
  private func openStream(_ inspector: Inspector) -> (RawClient?, Bool) {
    guard let client = RawClient(port: inspector.port) else { return (nil, false) }
    client.send(
      "GET /api/events?token=\(inspector.token) HTTP/1.1\r\n\(host(inspector))\r\n")
    let text = client.read(until: "\r\n\r\n", timeout: 5)
    return (client, RawClient.status(of: text) == 200)
  }

  /// Sends one authenticated `GET /api/sources` on a fresh connection; the status and the time
  /// it took.
  private func timedAuthenticatedRequest(_ inspector: Inspector) -> (Int?, TimeInterval) {
    let started = Date()
    guard let client = RawClient(port: inspector.port) else { return (nil, 0) }
    client.send(
      "GET /api/sources HTTP/1.1\r\n\(host(inspector))Authorization: Bearer \(inspector.token)"
        + "\r\nConnection: close\r\n\r\n")
    let text = client.read(until: "\r\n\r\n", timeout: 5)
    return (RawClient.status(of: text), Date().timeIntervalSince(started))
  }

  func test_idleUnauthenticatedConnections_doNotLockOutAnAuthenticatedRequest() throws {
    // given: far more idle connections than the server has slots
    let inspector = try Inspector(limits: limits)
    let idle = (0..<40).compactMap { _ in RawClient(port: inspector.port) }
    XCTAssertEqual(idle.count, 40)
    XCTAssertTrue(waitUntil { inspector.server.activeConnections.load(ordering: .relaxed) >= 8 })
    // when
    let (status, elapsed) = timedAuthenticatedRequest(inspector)
    // then
    XCTAssertEqual(status, 200)
    XCTAssertLessThan(elapsed, bound, "answered in \(elapsed) s")
    print("authenticated request under 40 idle connections: \(Int(elapsed * 1_000)) ms")
  }

  func test_slowlorisClients_doNotLockOutThePage() throws {
    // given: forty clients that each sent half a request and then stalled
    let inspector = try Inspector(limits: limits)
    let slow = (0..<40).compactMap { _ -> RawClient? in
      let client = RawClient(port: inspector.port)
      client?.send("GET / HTTP/1.1\r\n\(host(inspector))X-Slow: ")
      return client
    }
    XCTAssertEqual(slow.count, 40)
    // when
    let response = HTTPClient(inspector: inspector, timeout: bound).get("/", token: false)
    // then
    XCTAssertEqual(response?.status, 200)
  }

  func test_openEventStreams_leaveRoomForAPIRequests() throws {
    // given: as many streams as the server has connections
    let inspector = try Inspector(limits: limits)
    let streams = (0..<InspectorLimits.testing.maximumConnections).map { _ in
      openStream(inspector)
    }
    XCTAssertGreaterThan(streams.filter(\.1).count, 0)
    // when
    let (status, elapsed) = timedAuthenticatedRequest(inspector)
    // then
    XCTAssertEqual(status, 200)
    XCTAssertLessThan(elapsed, bound, "answered in \(elapsed) s")
  }

  func test_idleConnectionsAndOpenStreams_anAuthenticatedRequestStillAnswers() throws {
    // given: N idle unauthenticated connections and M streams, together over every limit
    let inspector = try Inspector(limits: limits)
    let streams = (0..<12).map { _ in openStream(inspector) }
    let idle = (0..<40).compactMap { _ in RawClient(port: inspector.port) }
    XCTAssertEqual(idle.count, 40)
    XCTAssertGreaterThan(streams.filter(\.1).count, 0)
    // when: several requests in a row, each on a new connection
    var times: [TimeInterval] = []
    for _ in 0..<5 {
      let (status, elapsed) = timedAuthenticatedRequest(inspector)
      XCTAssertEqual(status, 200)
      times.append(elapsed)
    }
    // then
    XCTAssertLessThan(times.max() ?? 0, bound, "\(times)")
    print(
      "authenticated request under 40 idle connections and 12 streams: max "
        + "\(Int((times.max() ?? 0) * 1_000)) ms of \(times.count)")
  }

  func test_unauthenticatedConnection_getsTheShortDeadline_authenticatedKeepsTheIdleTimeout()
    throws
  {
    // given
    var limits = InspectorLimits.testing
    limits.unauthenticatedTimeout = .milliseconds(300)
    limits.idleTimeout = .seconds(3)
    let inspector = try Inspector(limits: limits)
    let anonymous = try XCTUnwrap(RawClient(port: inspector.port))
    let page = try XCTUnwrap(RawClient(port: inspector.port))
    page.send(
      "GET /api/sources HTTP/1.1\r\n\(host(inspector))Authorization: Bearer \(inspector.token)"
        + "\r\n\r\n")
    XCTAssertTrue(page.read(until: "actionTypes").contains("200 OK"))
    // when
    let started = Date()
    let closed = anonymous.readAll(timeout: 2)
    // then
    XCTAssertTrue(closed.closed)
    XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
    XCTAssertFalse(page.readAll(timeout: 1).closed, "the authenticated connection stays open")
  }

  func test_eventStreams_beyondTheBound_are503_andAHungUpStreamFreesItsSlot() throws {
    // given
    var limits = InspectorLimits.testing
    limits.maximumEventStreams = 2
    let inspector = try Inspector(limits: limits)
    var first: RawClient? = openStream(inspector).0
    let second = openStream(inspector)
    XCTAssertNotNil(first)
    XCTAssertTrue(second.1)
    // when
    let third = openStream(inspector)
    // then
    XCTAssertFalse(third.1, "a third stream is refused")
    XCTAssertEqual(inspector.server.connectionCount(.stream), 2)
    // when the first stream's client vanishes (a reset, nothing more is sent)
    first?.resetOnClose()
    first = nil
    // then its slot is freed and a new stream opens
    XCTAssertTrue(waitUntil(timeout: 3) { inspector.server.connectionCount(.stream) == 1 })
    XCTAssertTrue(openStream(inspector).1)
  }
}
