import XCTest

@testable import ReactorKitInspector

final class HTTPRequestParserTests: XCTestCase {
  private let parser = HTTPRequestParser(maximumHeaderBytes: 256, maximumBodyBytes: 64)

  private func parse(_ text: String) -> HTTPRequestParser.Outcome {
    parser.parse(Array(text.utf8))
  }

  private func request(_ text: String) -> (HTTPRequest, Int)? {
    if case .request(let request, let consumed) = parse(text) { return (request, consumed) }
    return nil
  }

  private func status(_ text: String) -> Int? {
    if case .failure(let status, _) = parse(text) { return status }
    return nil
  }

  func test_parse_getWithQuery_decodesPathQueryAndHeaders() throws {
    // given
    let text =
      "GET /api/events?since=3&token=a%20b+c HTTP/1.1\r\nHost: 127.0.0.1:9\r\nX-A:  v \r\n\r\n"
    // when
    let (request, consumed) = try XCTUnwrap(request(text))
    // then
    XCTAssertEqual(consumed, text.utf8.count)
    XCTAssertEqual(request.method, "GET")
    XCTAssertEqual(request.path, "/api/events")
    XCTAssertEqual(request.query, ["since": "3", "token": "a b c"])
    XCTAssertEqual(request.header("host"), "127.0.0.1:9")
    XCTAssertEqual(request.header("x-a"), "v")
    XCTAssertTrue(request.keepsAlive)
  }

  func test_parse_postWithBody_waitsForTheWholeBody() throws {
    let head = "POST /api/jump HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n"
    XCTAssertEqual(parse(head + "abc"), .incomplete)
    let (request, consumed) = try XCTUnwrap(request(head + "abcde"))
    XCTAssertEqual(request.body, Array("abcde".utf8))
    XCTAssertEqual(consumed, head.utf8.count + 5)
  }

  func test_parse_pipelinedRequests_consumesOnlyTheFirst() throws {
    let one = "GET /a HTTP/1.1\r\nHost: h\r\n\r\n"
    let (request, consumed) = try XCTUnwrap(request(one + "GET /b HTTP/1.1\r\nHost: h\r\n\r\n"))
    XCTAssertEqual(request.path, "/a")
    XCTAssertEqual(consumed, one.utf8.count)
  }

  func test_parse_incompleteHeaders_needsMore() {
    XCTAssertEqual(parse(""), .incomplete)
    XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: h\r\n"), .incomplete)
  }

  func test_parse_oversizedHeaders_is431() {
    XCTAssertEqual(
      status("GET / HTTP/1.1\r\nHost: h\r\nX: " + String(repeating: "a", count: 300)), 431)
    XCTAssertEqual(
      status("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\nHost: h\r\n\r\n"), 431)
  }

  func test_parse_tooManyHeaderFields_is431() {
    let small = HTTPRequestParser(
      maximumHeaderBytes: 8_192, maximumHeaderCount: 3, maximumBodyBytes: 1)
    let text = "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"
    guard case .failure(431, _) = small.parse(Array(text.utf8)) else {
      return XCTFail("four fields over a limit of three must be refused with 431")
    }
  }

  func test_parse_oversizedBody_is413BeforeTheBodyArrives() {
    XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 65\r\n\r\n"), 413)
  }

  func test_parse_malformedRequests_are400() {
    XCTAssertEqual(status("GET\r\n\r\n"), 400)
    XCTAssertEqual(status("GET  / HTTP/1.1\r\nHost: h\r\n\r\n"), 400)
    XCTAssertEqual(status("GET http://x/ HTTP/1.1\r\nHost: h\r\n\r\n"), 400)
    XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nBad Header: x\r\n\r\n"), 400)
    XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n"), 400)
    XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1}b\r\n\r\n"), 400)
    XCTAssertEqual(status("GET / HTTP/1.1\r\n\r\n"), 400, "HTTP/1.1 needs a Host")
    XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400)
    XCTAssertEqual(status("GET /%zz HTTP/1.1\r\nHost: h\r\n\r\n"), 400)
    XCTAssertEqual(status("\u{16}\u{3}\u{1}\u{2}\u{0}"), 400, "a TLS hello is refused at once")
  }

  func test_parse_longMethod_isRefusedTheSameWhetherCompleteOrNot() {
    // Found by scripts/fuzz.sh: a method of 32 or more characters was refused while its request
    // line was still arriving, yet accepted once the headers were complete.
    let method = String(repeating: "G", count: 40)
    let text = "\(method) / HTTP/1.1\r\nHost: h\r\n\r\n"
    XCTAssertEqual(status(String(text.prefix(36))), 400)
    XCTAssertEqual(status(text), 400)
    let longest = String(repeating: "G", count: 31)
    XCTAssertEqual(request("\(longest) / HTTP/1.1\r\nHost: h\r\n\r\n")?.0.method, longest)
    XCTAssertNil(status(String("\(longest) / HT".prefix(33))))
  }

  func test_parse_malformedRequestLine_is400HoweverMuchFollows() {
    // Found by scripts/fuzz.sh: the same bad bytes were 400 while few had arrived and 431
    // once more than the header limit had.
    let garbage = "GE\u{1}T / HTTP/1.1\r\nX: "
    XCTAssertEqual(status(garbage), 400)
    XCTAssertEqual(status(garbage + String(repeating: "a", count: 400)), 400)
    XCTAssertEqual(status("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 400)), 431)
  }

  func test_parse_contentLength_mustBeOneNumber() {
    XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n"), 400)
    XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n"), 400)
    XCTAssertEqual(
      status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n"), 400)
    XCTAssertEqual(
      status("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999\r\n\r\n"), 400)
  }

  func test_parse_transferEncodingAndOtherVersions_areRefused() {
    XCTAssertEqual(status("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"), 501)
    XCTAssertEqual(status("GET / HTTP/2.0\r\nHost: h\r\n\r\n"), 505)
    XCTAssertEqual(status("GET / HTTP/1.x\r\nHost: h\r\n\r\n"), 400)
  }

  func test_keepsAlive_followsVersionAndConnectionHeader() throws {
    XCTAssertFalse(try XCTUnwrap(request("GET / HTTP/1.0\r\n\r\n")).0.keepsAlive)
    XCTAssertTrue(
      try XCTUnwrap(request("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")).0.keepsAlive)
    XCTAssertFalse(
      try XCTUnwrap(request("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")).0.keepsAlive)
  }

  func test_cookie_findsTheNamedCookie() throws {
    let (request, _) = try XCTUnwrap(
      request("GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1; rkinspector_9=tok; b=2\r\n\r\n"))
    XCTAssertEqual(request.cookie("rkinspector_9"), "tok")
    XCTAssertNil(request.cookie("c"))
  }
}
