/// The inspector's access rules, checked on every request before routing:
///
/// 1. `Host` must name the loopback interface with the server's port (`127.0.0.1:PORT`,
///    `localhost:PORT` or `[::1]:PORT`), so a page on another site can't reach the server
///    through a DNS name rebound to 127.0.0.1: otherwise 403.
/// 2. Everything under `/api/` needs the token: `Authorization: Bearer TOKEN` or a `token`
///    query parameter: otherwise 401. Never a cookie: cookies don't separate ports, so every
///    page and server on another 127.0.0.1 port would see it. The comparison takes the same
///    time wherever the first difference is.
/// 3. Requests that change something (every `POST`) need an `Origin` naming the server itself,
///    so another site can't make the browser send them: otherwise 403.
struct RequestAuthorization: Sendable {
  let token: String
  let port: UInt16

  enum Verdict: Equatable {
    case allowed
    case forbidden(String)
    case unauthorized
  }

  /// The verdict for `request`.
  func check(_ request: HTTPRequest) -> Verdict {
    guard let host = request.header("host"), isLoopbackHost(host) else {
      return .forbidden("the Host header must be 127.0.0.1:\(port) or localhost:\(port)")
    }
    guard request.path.hasPrefix("/api/") else { return .allowed }
    guard hasToken(request) else { return .unauthorized }
    if request.method != "GET" && request.method != "HEAD" {
      guard let origin = request.header("origin"), isOwnOrigin(origin) else {
        return .forbidden("this request needs an Origin of http://127.0.0.1:\(port)")
      }
    }
    if request.header("sec-fetch-site").map({ $0 == "cross-site" }) == true {
      return .forbidden("cross-site requests are not allowed")
    }
    return .allowed
  }

  func hasToken(_ request: HTTPRequest) -> Bool {
    if let authorization = request.header("authorization") {
      let parts = authorization.split(separator: " ", maxSplits: 1)
      if parts.count == 2, parts[0].lowercased() == "bearer",
        Self.constantTimeEquals(String(parts[1]), token)
      {
        return true
      }
    }
    if let query = request.query["token"], Self.constantTimeEquals(query, token) { return true }
    return false
  }

  func isLoopbackHost(_ host: String) -> Bool {
    let lowercased = host.lowercased()
    return ["127.0.0.1", "localhost", "[::1]"].contains { lowercased == "\($0):\(port)" }
  }

  func isOwnOrigin(_ origin: String) -> Bool {
    let lowercased = origin.lowercased()
    return ["127.0.0.1", "localhost", "[::1]"].contains { lowercased == "http://\($0):\(port)" }
  }

  /// Whether `candidate` equals `secret`, in time that depends only on `secret`'s length.
  static func constantTimeEquals(_ candidate: String, _ secret: String) -> Bool {
    let candidate = Array(candidate.utf8)
    let secret = Array(secret.utf8)
    var difference: UInt8 = candidate.count == secret.count ? 0 : 1
    for index in secret.indices {
      let byte = index < candidate.count ? candidate[index] : 0
      difference |= byte ^ secret[index]
    }
    return difference == 0
  }
}
