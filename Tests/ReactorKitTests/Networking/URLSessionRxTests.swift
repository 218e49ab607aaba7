import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `URLSession.rx` against a `URLProtocol` stub: no network.
final class URLSessionRxTests: ResourceTestCase {
  private var session: URLSession!

  override func setUp() {
    super.setUp()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [StubURLProtocol.self]
    session = URLSession(configuration: configuration)
  }

  override func tearDown() {
    session.invalidateAndCancel()
    session = nil
    StubURLProtocol.stubs.reset()
    super.tearDown()
  }

  func test_response_emitsTheHTTPResponseAndBodyWhateverTheStatus() throws {
    // given
    let url = URL(string: "https://stub.test/missing")!
    StubURLProtocol.stubs.set(url, status: 404, body: Data("nope".utf8))
    // when
    let result = try session.rx.response(request: URLRequest(url: url))
      .toBlocking(timeout: 10).single()
    // then
    XCTAssertEqual(result.response.statusCode, 404)
    XCTAssertEqual(String(decoding: result.data, as: UTF8.self), "nope")
  }

  func test_data_failsWithHTTPRequestFailedOutsideTheSuccessRange() throws {
    // given
    let good = URL(string: "https://stub.test/good")!
    let bad = URL(string: "https://stub.test/bad")!
    StubURLProtocol.stubs.set(good, status: 200, body: Data("ok".utf8))
    StubURLProtocol.stubs.set(bad, status: 500, body: Data("boom".utf8))
    // when
    let data = try session.rx.data(request: URLRequest(url: good)).toBlocking(timeout: 10)
      .single()
    let failure = session.rx.data(request: URLRequest(url: bad)).toBlocking(timeout: 10)
      .materialize()
    // then
    XCTAssertEqual(String(decoding: data, as: UTF8.self), "ok")
    guard case .failed(_, let error) = failure,
      case RxCocoaURLError.httpRequestFailed(let response, let body)? = error as? RxCocoaURLError
    else {
      return XCTFail("Expected httpRequestFailed, got \(failure)")
    }
    XCTAssertEqual(response.statusCode, 500)
    XCTAssertEqual(body.map { String(decoding: $0, as: UTF8.self) }, "boom")
  }

  func test_json_decodesTheBody_orFailsWithDeserializationError() throws {
    // given
    let json = URL(string: "https://stub.test/json")!
    let text = URL(string: "https://stub.test/text")!
    StubURLProtocol.stubs.set(json, status: 200, body: Data(#"{"name":"ReactorKit"}"#.utf8))
    StubURLProtocol.stubs.set(text, status: 200, body: Data("not json".utf8))
    // when
    let object = try session.rx.json(url: json).toBlocking(timeout: 10).single()
    let fromRequest = try session.rx.json(request: URLRequest(url: json))
      .toBlocking(timeout: 10).single()
    let failure = session.rx.json(url: text).toBlocking(timeout: 10).materialize()
    // then
    XCTAssertEqual((object as? [String: Any])?["name"] as? String, "ReactorKit")
    XCTAssertEqual((fromRequest as? [String: Any])?["name"] as? String, "ReactorKit")
    guard case .failed(_, let error) = failure,
      case RxCocoaURLError.deserializationError? = error as? RxCocoaURLError
    else {
      return XCTFail("Expected deserializationError, got \(failure)")
    }
  }

  func test_response_transportErrorIsForwarded() {
    // given
    let url = URL(string: "https://stub.test/offline")!
    StubURLProtocol.stubs.setFailure(url, URLError(.notConnectedToInternet))
    // when
    let result = session.rx.data(request: URLRequest(url: url)).toBlocking(timeout: 10)
      .materialize()
    // then
    guard case .failed(_, let error) = result else {
      return XCTFail("Expected a failure, got \(result)")
    }
    XCTAssertEqual((error as? URLError)?.code, .notConnectedToInternet)
  }

  func test_request_isSentPerSubscription_andDisposingCancelsIt() throws {
    // given
    let url = URL(string: "https://stub.test/count")!
    StubURLProtocol.stubs.set(url, status: 200, body: Data())
    let request = session.rx.data(request: URLRequest(url: url))
    // when
    _ = try request.toBlocking(timeout: 10).single()
    _ = try request.toBlocking(timeout: 10).single()
    let never = URL(string: "https://stub.test/hang")!
    StubURLProtocol.stubs.setHanging(never)
    let hanging = session.rx.data(request: URLRequest(url: never)).subscribe()
    XCTAssertTrue(waitUntil { StubURLProtocol.stubs.started(never) == 1 })
    hanging.dispose()
    // then
    XCTAssertEqual(StubURLProtocol.stubs.started(url), 2)
    XCTAssertTrue(waitUntil { StubURLProtocol.stubs.stopped(never) == 1 })
  }
}

// MARK: - Stub

private final class StubURLProtocol: URLProtocol {
  // Shared state lives in `stubs`, which locks.
  static let stubs = Stubs()

  final class Stubs: @unchecked Sendable {
    // Safety: every property is guarded by `lock`.
    enum Answer {
      case response(status: Int, body: Data)
      case failure(Error)
      case hang
    }

    private let lock = NSLock()
    private var answers: [URL: Answer] = [:]
    private var startCounts: [URL: Int] = [:]
    private var stopCounts: [URL: Int] = [:]

    func set(_ url: URL, status: Int, body: Data) {
      lock.withLock { answers[url] = .response(status: status, body: body) }
    }

    func setFailure(_ url: URL, _ error: Error) { lock.withLock { answers[url] = .failure(error) } }
    func setHanging(_ url: URL) { lock.withLock { answers[url] = .hang } }

    func start(_ url: URL) -> Answer? {
      lock.withLock {
        startCounts[url, default: 0] += 1
        return answers[url]
      }
    }

    func stop(_ url: URL) { lock.withLock { stopCounts[url, default: 0] += 1 } }
    func started(_ url: URL) -> Int { lock.withLock { startCounts[url] ?? 0 } }
    func stopped(_ url: URL) -> Int { lock.withLock { stopCounts[url] ?? 0 } }

    func reset() {
      lock.withLock {
        answers = [:]
        startCounts = [:]
        stopCounts = [:]
      }
    }
  }

  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

  override func startLoading() {
    guard let url = request.url, let answer = Self.stubs.start(url) else {
      client?.urlProtocol(self, didFailWithError: URLError(.unsupportedURL))
      return
    }
    switch answer {
    case .response(let status, let body):
      let response = HTTPURLResponse(
        url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
      client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
      client?.urlProtocol(self, didLoad: body)
      client?.urlProtocolDidFinishLoading(self)
    case .failure(let error):
      client?.urlProtocol(self, didFailWithError: error)
    case .hang:
      break
    }
  }

  override func stopLoading() {
    if let url = request.url { Self.stubs.stop(url) }
  }
}
