import Foundation
import ReactorKitInspector

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A blocking URLSession client for the end-to-end tests; every request has a timeout.
struct HTTPClient {
  let inspector: Inspector
  var timeout: TimeInterval = 10

  struct Response {
    var status: Int
    var body: Data
    var headers: [String: String]
    var text: String { String(decoding: body, as: UTF8.self) }
    var json: [String: Any] {
      (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }
  }

  var base: String { "http://127.0.0.1:\(inspector.port)" }

  /// Sends a request with the token as a bearer (unless `token` is false) and, for a POST, an
  /// `Origin` of the inspector itself.
  func send(
    _ method: String, _ path: String, body: Data? = nil, token: Bool = true,
    headers: [String: String] = [:]
  ) -> Response? {
    var request = URLRequest(url: URL(string: base + path)!)
    request.httpMethod = method
    request.timeoutInterval = timeout
    if token { request.setValue("Bearer \(inspector.token)", forHTTPHeaderField: "Authorization") }
    if method == "POST" { request.setValue(base, forHTTPHeaderField: "Origin") }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    request.httpBody = body
    let result = Result()
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    let session = URLSession(configuration: configuration)
    let task = session.dataTask(with: request) { data, response, _ in
      if let response = response as? HTTPURLResponse {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
          headers[String(describing: name).lowercased()] = String(describing: value)
        }
        result.set(Response(status: response.statusCode, body: data ?? Data(), headers: headers))
      }
      result.done.signal()
    }
    task.resume()
    let finished = result.done.wait(timeout: .now() + timeout + 2) == .success
    session.finishTasksAndInvalidate()
    return finished ? result.get() : nil
  }

  func get(_ path: String, token: Bool = true) -> Response? { send("GET", path, token: token) }

  func post(_ path: String, json: String) -> Response? {
    send("POST", path, body: Data(json.utf8), headers: ["Content-Type": "application/json"])
  }

  /// The events recorded so far (a non-following event stream), decoded.
  func events(since: UInt64 = 0) -> [[String: Any]] {
    guard let response = get("/api/events?since=\(since)&follow=0"), response.status == 200
    else { return [] }
    return response.text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("data: ") else { return nil }
      return (try? JSONSerialization.jsonObject(with: Data(line.dropFirst(6).utf8)))
        as? [String: Any]
    }
  }

  private final class Result: @unchecked Sendable {
    // Safety: `value` is guarded by `lock`.
    let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var value: Response?
    func set(_ response: Response) { lock.withLock { value = response } }
    func get() -> Response? { lock.withLock { value } }
  }
}
