import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

@testable import ReactorKitInspector

/// Hostile input and hostile timing against the parser and a live server: nothing crashes,
/// every bad request gets an error status or a closed connection, and the server keeps
/// serving other clients throughout. Every assertion names its seed.
final class InspectorServerFuzzTests: XCTestCase {
  private static let validRequests = [
    "GET / HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n",
    "GET /api/events?since=3&follow=0 HTTP/1.1\r\nHost: h\r\nAuthorization: Bearer x\r\n\r\n",
    "POST /api/jump HTTP/1.1\r\nHost: h\r\nOrigin: http://h\r\nContent-Length: 11\r\n\r\n{\"seq\": 1}\n",
    "GET /api/state?source=store HTTP/1.0\r\nCookie: a=b\r\n\r\n",
  ]

  // MARK: - The parser alone

  func test_parser_randomBytes_neverCrashAndAreRefusedOrIncomplete() {
    let parser = HTTPRequestParser(maximumHeaderBytes: 1_024, maximumBodyBytes: 1_024)
    for seed in StressConfiguration.seeds(200) {
      var random = SeededRandomNumberGenerator(seed: seed)
      let count = Int.random(in: 0...3_000, using: &random)
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      switch parser.parse(bytes) {
      case .request(let request, let consumed):
        XCTAssertLessThanOrEqual(consumed, bytes.count, "seed \(seed)")
        XCTAssertTrue(request.target.hasPrefix("/"), "seed \(seed)")
      case .incomplete:
        XCTAssertLessThanOrEqual(bytes.count, 1_028, "seed \(seed): more than the limit pending")
      case .failure(let status, _):
        XCTAssertTrue([400, 413, 431, 501, 505].contains(status), "seed \(seed): \(status)")
      }
    }
  }

  func test_parser_mutatedRequests_fedInRandomPieces_agreeWithParsingAtOnce() {
    let parser = HTTPRequestParser(maximumHeaderBytes: 1_024, maximumBodyBytes: 1_024)
    for seed in StressConfiguration.seeds(300) {
      var random = SeededRandomNumberGenerator(seed: seed)
      var bytes = Array(Self.validRequests.randomElement(using: &random)!.utf8)
      for _ in 0..<Int.random(in: 0...4, using: &random) where !bytes.isEmpty {
        let index = Int.random(in: 0..<bytes.count, using: &random)
        switch Int.random(in: 0...2, using: &random) {
        case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
        case 1: bytes.remove(at: index)
        default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
        }
      }
      let whole = parser.parse(bytes)
      // Growing the buffer piece by piece reaches the same verdict once everything arrived,
      // and never reports a complete request early.
      var buffer: [UInt8] = []
      var verdict = HTTPRequestParser.Outcome.incomplete
      while buffer.count < bytes.count {
        let take = min(bytes.count - buffer.count, Int.random(in: 1...40, using: &random))
        buffer += bytes[buffer.count..<(buffer.count + take)]
        verdict = parser.parse(buffer)
        if case .incomplete = verdict { continue }
        break
      }
      if case .request(_, let consumed) = verdict {
        XCTAssertEqual(verdict, parser.parse(Array(bytes[0..<consumed])), "seed \(seed)")
      } else if case .failure = whole, case .incomplete = verdict {
        XCTFail("seed \(seed): the whole input is refused but its pieces stayed incomplete")
      }
    }
  }

  // MARK: - A live server

  private func assertStillServes(_ inspector: Inspector, _ context: String) {
    let response = HTTPClient(inspector: inspector, timeout: 5).get("/api/sources")
    XCTAssertEqual(response?.status, 200, "the server stopped serving: \(context)")
  }

  func test_server_randomBytesAndTruncatedRequests_getAnErrorOrAClose() throws {
    let inspector = try Inspector(limits: .testing)
    for seed in StressConfiguration.seeds(40) {
      var random = SeededRandomNumberGenerator(seed: seed)
      guard let client = RawClient(port: inspector.port) else {
        return XCTFail("seed \(seed): no connection")
      }
      var bytes: [UInt8]
      if Bool.random(using: &random) {
        bytes = (0..<Int.random(in: 1...6_000, using: &random)).map { _ in
          UInt8.random(in: 0...255, using: &random)
        }
      } else {
        let valid = Array(Self.validRequests.randomElement(using: &random)!.utf8)
        bytes = Array(valid.prefix(Int.random(in: 1..<valid.count, using: &random)))
      }
      client.send(bytes)
      client.finishSending()
      let response = client.readAll(timeout: 5)
      XCTAssertTrue(response.closed, "seed \(seed): the connection stayed open")
      if let status = RawClient.status(of: response.text) {
        XCTAssertTrue(
          [200, 400, 401, 403, 404, 405, 408, 413, 431, 501, 505].contains(status),
          "seed \(seed): \(status)")
      }
    }
    assertStillServes(inspector, "after random bytes")
  }

  func test_server_oversizedRequests_are431Or413() throws {
    let inspector = try Inspector(limits: .testing)
    for seed in StressConfiguration.seeds(10) {
      var random = SeededRandomNumberGenerator(seed: seed)
      let client = try XCTUnwrap(RawClient(port: inspector.port))
      let headerBytes = Int.random(in: 5_000...40_000, using: &random)
      client.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(inspector.port)\r\nX: ")
      client.send(Array(repeating: UInt8(ascii: "a"), count: headerBytes))
      XCTAssertEqual(RawClient.status(of: client.readAll().text), 431, "seed \(seed)")
    }
    assertStillServes(inspector, "after oversized requests")
  }

  func test_server_slowWriters_doNotDelayOtherClients() throws {
    // given three clients (times STRESS_ITERATIONS) sending one byte at a time
    let inspector = try Inspector(limits: .testing)
    let request = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(inspector.port)\r\n\r\n".utf8)
    let statuses = Locked<[Int?]>([])
    let group = DispatchGroup()
    let seeds = StressConfiguration.seeds(3)
    for seed in seeds {
      DispatchQueue.global().async(group: group) {
        var random = SeededRandomNumberGenerator(seed: seed)
        guard let client = RawClient(port: inspector.port) else { return }
        for byte in request {
          client.send([byte])
          usleep(UInt32.random(in: 500...20_000, using: &random))
        }
        statuses.withLock { $0.append(RawClient.status(of: client.readAll().text)) }
      }
    }
    // when another client asks meanwhile
    usleep(50_000)
    let started = Date()
    let other = try XCTUnwrap(RawClient(port: inspector.port))
    other.send(request)
    let answer = other.read(until: "</html>", timeout: 5)
    // then it is answered at once, and the slow ones either complete or time out (408)
    XCTAssertEqual(RawClient.status(of: answer), 200)
    XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
    XCTAssertEqual(group.wait(timeout: .now() + 20), .success)
    // More slow writers than unauthenticated slots (a soak's STRESS_ITERATIONS): each newcomer
    // beyond the quota closes the oldest unanswered one, which then reads no answer at all.
    let quota = InspectorLimits.testing.maximumUnauthenticatedConnections
    let mayBeClosed = max(0, seeds.count + 1 - quota)
    let received = statuses.withLock { $0 }
    for status in received {
      XCTAssertTrue(
        status == 200 || status == 408 || status == nil,
        "a slow writer got \(String(describing: status))")
    }
    XCTAssertLessThanOrEqual(
      received.filter { $0 == nil }.count, mayBeClosed,
      "\(seeds.count) slow writers, \(quota) unauthenticated slots: closed more than needed")
  }

  func test_server_hundredParallelConnections_eachAnsweredAndOthersStillServed() throws {
    // given
    var limits = InspectorLimits.testing
    limits.maximumConnections = 32
    let (inspector, store) = try makeInspectedStore(limits: limits)
    let statuses = Locked<[Int?]>([])
    let group = DispatchGroup()
    // when a hundred clients connect at once while the app dispatches
    for index in 0..<100 {
      DispatchQueue.global().async(group: group) {
        guard let client = RawClient(port: inspector.port) else {
          statuses.withLock { $0.append(nil) }
          return
        }
        let path = index % 2 == 0 ? "/api/events?since=0&follow=0" : "/api/sources"
        client.send(
          "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(inspector.port)\r\n"
            + "Authorization: Bearer \(inspector.token)\r\nConnection: close\r\n\r\n")
        statuses.withLock { $0.append(RawClient.status(of: client.readAll(timeout: 15).text)) }
      }
    }
    for _ in 0..<200 { store.dispatch(NotesAction.increment) }
    // then
    XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "clients hung")
    let all = statuses.withLock { $0 }
    XCTAssertEqual(all.count, 100)
    XCTAssertTrue(all.allSatisfy { $0 == 200 || $0 == 503 }, "\(all)")
    XCTAssertGreaterThan(all.filter { $0 == 200 }.count, 0)
    XCTAssertEqual(store.currentState.count, 200)
    assertStillServes(inspector, "after a hundred parallel connections")
  }
}

/// A value guarded by a lock, for results collected from several threads.
final class Locked<Value>: @unchecked Sendable {
  // Safety: `value` is only touched inside `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}
