import Foundation
import XCTest

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Runs the examples with `--inspect` as a developer would: the inspector's address appears on
/// standard error, its API shows the reactor's state after scripted commands, and `quit` still
/// ends the program (with `--inspect` it keeps running once its input ends).
final class InspectFlagTests: XCTestCase {
  override func setUp() {
    super.setUp()
    // A command sent to an example that already ended fails with EPIPE instead of killing the
    // test process with SIGPIPE.
    signal(SIGPIPE, SIG_IGN)
  }

  func test_gitHubSearch_inspect_servesTheSearchReactorsState() throws {
    // given
    let example = try InspectedExample(
      "GitHubSearch", ["--latency", "0.01", "--debounce", "0.01", "--inspect"])
    defer { example.stop() }
    let url = try XCTUnwrap(example.inspectorURL(), "no inspector address on standard error")
    // when
    example.send("type swift\n")
    // then
    // The state as the inspector renders it: one node per property, values as Swift prints them.
    let state = try example.waitForState(source: "search") {
      $0.contains(#"{"k":"resultsQuery","t":"String","v":"\"swift\""}"#)
        && $0.contains(#"{"k":"isSearching","t":"Bool","v":"false"}"#)
    }
    XCTAssertEqual(url.host, "127.0.0.1")
    XCTAssertTrue(state.contains(#""k":"repositories","t":"Array\u003cRepository>","n":30"#), state)
    example.send("quit\n")
    XCTAssertEqual(example.waitForExit(), 0)
  }

  func test_counter_inspect_servesTheCounterReactorsState() throws {
    // given
    let example = try InspectedExample("Counter", ["--delay", "0", "--inspect"])
    defer { example.stop() }
    XCTAssertNotNil(example.inspectorURL(), "no inspector address on standard error")
    // when
    example.send("increase\nincrease\n")
    // then
    _ = try example.waitForState(source: "counter") {
      $0.contains(#"{"k":"value","t":"Int","v":"2"}"#)
    }
    example.send("quit\n")
    XCTAssertEqual(example.waitForExit(), 0)
  }
}

/// An example started with `--inspect`, its standard input kept open for more commands.
private final class InspectedExample: @unchecked Sendable {
  // Safety: `errors` is guarded by `lock`; the process and pipes are used from the test's
  // thread, except the reading threads, which only read their pipe.
  private let process = Process()
  private let input = Pipe()
  private let lock = NSLock()
  private var errors = ""
  private var url: URL?

  init(_ name: String, _ arguments: [String]) throws {
    process.executableURL = try ExampleProcess.executable(name)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // Both pipes are drained so the program never blocks on a full pipe.
    Thread.detachNewThread { _ = output.fileHandleForReading.readDataToEndOfFile() }
    Thread.detachNewThread { [self] in
      while case let data = error.fileHandleForReading.availableData, !data.isEmpty {
        lock.withLock { errors += String(decoding: data, as: UTF8.self) }
      }
    }
  }

  /// The address the example printed as `Inspector: <url>`, waiting up to 20 s for it.
  func inspectorURL(timeout: TimeInterval = 20) -> URL? {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      let text = lock.withLock { errors }
      if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("Inspector: ") }) {
        url = URL(string: String(line.dropFirst("Inspector: ".count)))
        return url
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return nil
  }

  func send(_ text: String) {
    do {
      try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    } catch {
      XCTFail("the example no longer reads its input (\(error)); it wrote: \(errorOutput)")
    }
  }

  /// What the example wrote on standard error so far.
  var errorOutput: String { lock.withLock { errors } }

  /// Polls `GET /api/state?source=` until the body satisfies `accept` (at most 20 s); returns it.
  func waitForState(source: String, timeout: TimeInterval = 20, _ accept: (String) -> Bool)
    throws -> String
  {
    let base = try XCTUnwrap(url)
    let token = try XCTUnwrap(
      base.fragment?.split(separator: "=", maxSplits: 1).last.map(String.init))
    var components = try XCTUnwrap(URLComponents(url: base, resolvingAgainstBaseURL: false))
    components.fragment = nil
    components.path = "/api/state"
    components.queryItems = [URLQueryItem(name: "source", value: source)]
    var request = URLRequest(url: try XCTUnwrap(components.url), timeoutInterval: 5)
    request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
    let deadline = Date().addingTimeInterval(timeout)
    var last = ""
    while Date() < deadline {
      guard process.isRunning else {
        XCTFail("the example ended (status \(process.terminationStatus)): \(errorOutput)")
        return last
      }
      last = fetch(request)
      if accept(last) { return last }
      Thread.sleep(forTimeInterval: 0.05)
    }
    XCTFail("the state of \(source) never matched; last response: \(last)")
    return last
  }

  private func fetch(_ request: URLRequest) -> String {
    let done = DispatchSemaphore(value: 0)
    let body = UncheckedBox("")
    URLSession.shared.dataTask(with: request) { data, _, error in
      body.value = data.map { String(decoding: $0, as: UTF8.self) } ?? "\(error as Any)"
      done.signal()
    }.resume()
    _ = done.wait(timeout: .now() + 10)
    return body.value
  }

  func waitForExit() -> Int32 {
    try? input.fileHandleForWriting.close()
    return ExampleProcess.waitForExit(process, timeout: 20)
  }

  func stop() {
    if process.isRunning { process.terminate() }
  }
}

/// A value written by a URLSession callback and read after its semaphore.
private final class UncheckedBox: @unchecked Sendable {
  // Safety: written once before the semaphore is signalled, read after waiting for it.
  var value: String
  init(_ value: String) { self.value = value }
}
