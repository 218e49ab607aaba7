/// A complete HTTP response, written with a `Content-Length`.
///
/// The writer never puts a line break in the head: a header whose name is not an RFC 9110
/// token, or whose value holds a control character other than a tab (CR, LF and NUL among
/// them), turns the whole response into a plain `500`, so no request value can add a header
/// line or end the head early.
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

  /// What the writer sends instead of a response with an invalid header.
  static let refused = HTTPResponse.error(500, "the server refused to write an invalid header")

  /// The status line, the headers (the server's own after `headers`) and the body (left out,
  /// with its length still announced, for a `HEAD` request). A response with an invalid header
  /// is written as ``refused`` instead.
  func serialized(keepAlive: Bool, includesBody: Bool = true) -> [UInt8] {
    guard Self.areValid(headers) else {
      return Self.refused.serialized(keepAlive: false, includesBody: includesBody)
    }
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    head += Self.commonHeaders
    head += "\r\n"
    return includesBody ? Array(head.utf8) + body : Array(head.utf8)
  }

  /// The head of a streamed `200` response (no length, the connection closes after it), or of
  /// ``refused`` if a header is invalid.
  static func streamHead(headers: [(name: String, value: String)]) -> [UInt8] {
    guard areValid(headers) else { return refused.serialized(keepAlive: false) }
    var head = "HTTP/1.1 200 OK\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Connection: close\r\n" + commonHeaders + "\r\n"
    return Array(head.utf8)
  }

  /// Headers on every response: nothing is cached, sniffed, framed or sent as a referrer.
  static let commonHeaders =
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
    + "X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n"

  // MARK: - Validation

  static func areValid(_ headers: [(name: String, value: String)]) -> Bool {
    headers.allSatisfy { isValidHeader(name: $0.name, value: $0.value) }
  }

  /// Whether `name` is a token (RFC 9110 §5.1) and `value` holds no control character but
  /// tab (so no CR, LF or NUL).
  static func isValidHeader(name: String, value: String) -> Bool {
    !name.utf8.isEmpty && name.utf8.allSatisfy(HTTPRequestParser.isTokenCharacter)
      && value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
  }

  // MARK: - File names

  /// A `Content-Disposition` value for a download named `filename`: a quoted fallback name
  /// of `[A-Za-z0-9._-]` only (anything else becomes `_`; at most 128 characters, no leading
  /// dot) and the name in RFC 6266's `filename*`, percent-encoded UTF-8 (its first 128
  /// Unicode scalars too).
  static func attachment(filename: String) -> String {
    let scalars = filename.unicodeScalars.prefix(128)
    var fallback = String(
      scalars.map { scalar -> Character in
        scalar.isASCII && isSafeFilenameByte(UInt8(scalar.value)) ? Character(scalar) : "_"
      })
    if fallback.hasPrefix(".") { fallback = "_" + fallback.dropFirst() }
    if fallback.isEmpty { fallback = "download" }
    var encoded = ""
    for byte in String(String.UnicodeScalarView(scalars)).utf8 {
      if isAttributeCharacter(byte) {
        encoded.append(Character(Unicode.Scalar(byte)))
      } else {
        let hex = String(byte, radix: 16, uppercase: true)
        encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
      }
    }
    return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(encoded)"
  }

  private static func isSafeFilenameByte(_ byte: UInt8) -> Bool {
    HTTPRequestParser.isLetterOrDigit(byte, orOneOf: "._-")
  }

  /// RFC 5987's `attr-char`: what `filename*` may hold unencoded.
  private static func isAttributeCharacter(_ byte: UInt8) -> Bool {
    HTTPRequestParser.isLetterOrDigit(byte, orOneOf: "!#$&+-.^_`|~")
  }

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
