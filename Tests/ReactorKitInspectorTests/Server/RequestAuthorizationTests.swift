import XCTest

@testable import ReactorKitInspector

final class RequestAuthorizationTests: XCTestCase {
  private let authorization = RequestAuthorization(
    token: "0123456789abcdef0123456789abcdef", port: 4242)

  private func request(
    _ method: String = "GET", _ target: String = "/api/sources", headers: [(String, String)]
  ) -> HTTPRequest {
    let parts = target.split(separator: "?", maxSplits: 1)
    var query: [String: String] = [:]
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let kv = pair.split(separator: "=", maxSplits: 1)
        query[String(kv[0])] = kv.count == 2 ? String(kv[1]) : ""
      }
    }
    return HTTPRequest(
      method: method, target: target, path: String(parts[0]), query: query, minorVersion: 1,
      headers: headers.map { (name: $0.0.lowercased(), value: $0.1) }, body: [])
  }

  private let bearer = ("Authorization", "Bearer 0123456789abcdef0123456789abcdef")

  func test_check_hostMustBeLoopbackWithThePort() {
    for host in ["127.0.0.1:4242", "localhost:4242", "LOCALHOST:4242", "[::1]:4242"] {
      XCTAssertEqual(
        authorization.check(request(headers: [("Host", host), bearer])), .allowed, host)
    }
    for host in ["evil.example:4242", "127.0.0.1", "127.0.0.1:80", "localhost.evil:4242", ""] {
      guard case .forbidden = authorization.check(request(headers: [("Host", host), bearer])) else {
        return XCTFail("the Host \(host) must be refused (DNS rebinding)")
      }
    }
    guard case .forbidden = authorization.check(request(headers: [bearer])) else {
      return XCTFail("a request without Host must be refused")
    }
  }

  func test_check_tokenByBearerOrQuery() {
    let host = ("Host", "127.0.0.1:4242")
    XCTAssertEqual(authorization.check(request(headers: [host, bearer])), .allowed)
    XCTAssertEqual(
      authorization.check(
        request("GET", "/api/events?token=0123456789abcdef0123456789abcdef", headers: [host])),
      .allowed)
    XCTAssertEqual(authorization.check(request(headers: [host])), .unauthorized)
    XCTAssertEqual(
      authorization.check(request(headers: [host, ("Authorization", "Bearer 0123")])), .unauthorized
    )
    XCTAssertEqual(
      authorization.check(
        request(headers: [host, ("Cookie", "rkinspector_4243=0123456789abcdef0123456789abcdef")])),
      .unauthorized, "another port's cookie is not this inspector's")
  }

  func test_check_tokenInACookie_isNotAccepted() {
    // Cookies don't separate ports: a token there is readable by every local port's pages and
    // sent to every local port's server, so the server never relies on one.
    let host = ("Host", "127.0.0.1:4242")
    XCTAssertEqual(
      authorization.check(
        request(headers: [
          host, ("Cookie", "x=1; rkinspector_4242=0123456789abcdef0123456789abcdef"),
        ])),
      .unauthorized)
  }

  func test_check_pageNeedsNoToken() {
    XCTAssertEqual(
      authorization.check(request("GET", "/", headers: [("Host", "127.0.0.1:4242")])), .allowed)
  }

  func test_check_postNeedsOwnOrigin() {
    let host = ("Host", "127.0.0.1:4242")
    XCTAssertEqual(
      authorization.check(
        request("POST", "/api/jump", headers: [host, bearer, ("Origin", "http://127.0.0.1:4242")])),
      .allowed)
    XCTAssertEqual(
      authorization.check(
        request("POST", "/api/jump", headers: [host, bearer, ("Origin", "http://localhost:4242")])),
      .allowed)
    for origin in [
      "http://evil.example", "http://127.0.0.1:4243", "null", "https://127.0.0.1:4242",
    ] {
      guard
        case .forbidden = authorization.check(
          request("POST", "/api/jump", headers: [host, bearer, ("Origin", origin)]))
      else { return XCTFail("the Origin \(origin) must be refused") }
    }
    guard
      case .forbidden = authorization.check(request("POST", "/api/jump", headers: [host, bearer]))
    else { return XCTFail("a POST without Origin must be refused") }
  }

  func test_constantTimeEquals_comparesWholeStrings() {
    XCTAssertTrue(RequestAuthorization.constantTimeEquals("abc", "abc"))
    XCTAssertFalse(RequestAuthorization.constantTimeEquals("abd", "abc"))
    XCTAssertFalse(RequestAuthorization.constantTimeEquals("ab", "abc"))
    XCTAssertFalse(RequestAuthorization.constantTimeEquals("abcd", "abc"))
    XCTAssertFalse(RequestAuthorization.constantTimeEquals("", "abc"))
  }

  func test_token_is128RandomBitsInHex() {
    let tokens = (0..<20).map { _ in Inspector.makeToken() }
    XCTAssertEqual(Set(tokens).count, 20)
    for token in tokens {
      XCTAssertEqual(token.count, 32)
      XCTAssertTrue(token.allSatisfy { $0.isHexDigit })
    }
  }
}
