/// A complete HTTP response, written with a `Content-Length`.
struct HTTPResponse: Sendable {
  var status: Int
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON response.
  static func json(_ status: Int = 200, _ body: String) -> HTTPResponse {
    HTTPResponse(
      status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
      body: Array(body.utf8))
  }

  /// An error response: `{"error": "..."}`.
  static func error(_ status: Int, _ message: String) -> HTTPResponse {
    var json = JSONWriter()
    json.object { json in json.field("error", message) }
    return .json(status, json.text)
  }

  /// The status line, the headers (the server's own after `headers`) and the body (left out,
  /// with its length still announced, for a `HEAD` request).
  func serialized(keepAlive: Bool, includesBody: Bool = true) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    head += Self.commonHeaders
    head += "\r\n"
    return includesBody ? Array(head.utf8) + body : Array(head.utf8)
  }

  /// Headers on every response: nothing is cached, sniffed, framed or sent as a referrer.
  static let commonHeaders =
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
    + "X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n"

  static func reason(_ status: Int) -> String {
    switch status {
    case 200: return "OK"
    case 202: return "Accepted"
    case 204: return "No Content"
    case 400: return "Bad Request"
    case 401: return "Unauthorized"
    case 403: return "Forbidden"
    case 404: return "Not Found"
    case 405: return "Method Not Allowed"
    case 408: return "Request Timeout"
    case 409: return "Conflict"
    case 413: return "Content Too Large"
    case 422: return "Unprocessable Content"
    case 431: return "Request Header Fields Too Large"
    case 500: return "Internal Server Error"
    case 501: return "Not Implemented"
    case 503: return "Service Unavailable"
    case 505: return "HTTP Version Not Supported"
    default: return "Status"
    }
  }
}
