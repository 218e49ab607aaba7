import XCTest

@testable import ReactorKitInspector

/// The response writer: nothing a request carries can add a header line, and no header name or
/// value with CR, LF or NUL is ever written.
final class HTTPResponseTests: XCTestCase {
  /// Every header the server itself writes, with a typical value.
  private static let serverHeaders: [(name: String, value: String)] = [
    ("Content-Type", "application/json; charset=utf-8"),
    ("Content-Security-Policy", "default-src 'none'"),
    ("Content-Disposition", "attachment; filename=\"store-recording.jsonl\""),
    ("X-Skipped-Actions", "0"),
    ("WWW-Authenticate", "Bearer realm=\"reactorkit-inspector\""),
    ("X-Accel-Buffering", "no"),
  ]

  private static let forbidden = ["\r", "\n", "\u{0}", "\r\n", "\r\nSet-Cookie: a=b"]

  /// The header lines of `bytes` (between the status line and the blank line).
  private func headerLines(_ bytes: [UInt8]) -> [String] {
    let text = String(decoding: bytes, as: UTF8.self)
    let head = text.components(separatedBy: "\r\n\r\n")[0]
    return Array(head.components(separatedBy: "\r\n").dropFirst())
  }

  func test_serialized_validHeaders_areWrittenAsGiven() {
    for header in Self.serverHeaders {
      // given
      let response = HTTPResponse(status: 200, headers: [header], body: Array("ok".utf8))
      // when
      let bytes = response.serialized(keepAlive: true)
      // then
      XCTAssertTrue(
        headerLines(bytes).contains("\(header.name): \(header.value)"), "\(header.name)")
      XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
    }
  }

  func test_serialized_controlCharactersInAValue_areRefusedForEveryServerHeader() {
    for header in Self.serverHeaders {
      for bad in Self.forbidden {
        // given
        let value = header.value + bad + "X-Injected: 1"
        let response = HTTPResponse(
          status: 200, headers: [(header.name, value)], body: Array("secret".utf8))
        // when
        let bytes = response.serialized(keepAlive: true)
        let text = String(decoding: bytes, as: UTF8.self)
        // then
        XCTAssertTrue(
          text.hasPrefix("HTTP/1.1 500 "), "\(header.name) with \(bad.debugDescription): \(text)")
        XCTAssertFalse(text.contains("X-Injected"), "\(header.name): \(text)")
        XCTAssertFalse(text.contains("Set-Cookie"), "\(header.name): \(text)")
        XCTAssertFalse(text.contains("secret"), "the body meant for the bad headers")
        XCTAssertFalse(bytes.contains(0), "no NUL is written")
        for line in headerLines(bytes) {
          XCTAssertFalse(line.contains("\r") || line.contains("\n"), line)
        }
      }
    }
  }

  func test_serialized_badHeaderNames_areRefused() {
    for name in ["X-A\r\nSet-Cookie", "X-A\n", "X\u{0}A", "", "X A", "X:A", "Ünïcode"] {
      let response = HTTPResponse(status: 200, headers: [(name, "v")])
      let text = String(decoding: response.serialized(keepAlive: false), as: UTF8.self)
      XCTAssertTrue(text.hasPrefix("HTTP/1.1 500 "), name.debugDescription)
      XCTAssertFalse(text.contains("Set-Cookie"), name.debugDescription)
    }
  }

  func test_serialized_tabAndVisibleCharacters_areAllowedInValues() {
    let response = HTTPResponse(status: 200, headers: [("X-Skipped-Actions", "a\tb é ~")])
    let text = String(decoding: response.serialized(keepAlive: false), as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK"), text)
  }

  func test_streamHead_refusesControlCharactersToo() {
    // given
    let good = HTTPResponse.streamHead(headers: [("Content-Type", "text/event-stream")])
    let bad = HTTPResponse.streamHead(headers: [("Content-Type", "text/x\r\nSet-Cookie: a=b")])
    // then
    XCTAssertTrue(String(decoding: good, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
    XCTAssertTrue(headerLines(good).contains("Connection: close"))
    let text = String(decoding: bad, as: UTF8.self)
    XCTAssertTrue(text.hasPrefix("HTTP/1.1 500 "), text)
    XCTAssertFalse(text.contains("Set-Cookie"))
  }

  // MARK: - File names

  func test_attachment_asciiName_isKeptInBothForms() {
    XCTAssertEqual(
      HTTPResponse.attachment(filename: "store-recording.jsonl"),
      "attachment; filename=\"store-recording.jsonl\"; filename*=UTF-8''store-recording.jsonl")
  }

  func test_attachment_hostileNames_onlyProduceSafeCharacters() {
    let names = [
      "x\r\nSet-Cookie: a=b\r\nX-Injected: 1", "x\nY", "a\"; filename=\"evil.sh", "\u{0}",
      "../../etc/passwd", "café ☕️", "a;b,c\\d%e'f", String(repeating: "x", count: 1_000),
    ]
    for name in names {
      // when
      let value = HTTPResponse.attachment(filename: name + "-recording.jsonl")
      // then: a fallback name of [A-Za-z0-9._-] and an RFC 5987 encoded one, nothing else
      let parts = value.components(separatedBy: "; ")
      XCTAssertEqual(parts.count, 3, value)
      XCTAssertEqual(parts[0], "attachment")
      XCTAssertTrue(parts[1].hasPrefix("filename=\"") && parts[1].hasSuffix("\""), value)
      let fallback = parts[1].dropFirst(10).dropLast()
      XCTAssertTrue(
        fallback.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) },
        value)
      XCTAssertFalse(fallback.hasPrefix("."), "no hidden or relative file name: \(value)")
      XCTAssertLessThanOrEqual(fallback.count, 128)
      XCTAssertTrue(parts[2].hasPrefix("filename*=UTF-8''"), value)
      let encoded = parts[2].dropFirst(17)
      XCTAssertTrue(
        encoded.allSatisfy {
          $0.isASCII && ($0.isLetter || $0.isNumber || "!#$&+-.^_`|~%".contains($0))
        },
        value)
      XCTAssertTrue(HTTPResponse.isValidHeader(name: "Content-Disposition", value: value))
    }
  }

  func test_attachment_longName_isCutAtAScalarBoundary() {
    let value = HTTPResponse.attachment(filename: String(repeating: "é", count: 200))
    XCTAssertTrue(value.hasSuffix("''" + String(repeating: "%C3%A9", count: 128)), value)
  }

  func test_attachment_unicodeName_isPercentEncodedInUTF8() {
    let value = HTTPResponse.attachment(filename: "café.jsonl")
    XCTAssertTrue(value.hasSuffix("filename*=UTF-8''caf%C3%A9.jsonl"), value)
    XCTAssertTrue(value.contains("filename=\"caf_.jsonl\""), value)
  }
}
