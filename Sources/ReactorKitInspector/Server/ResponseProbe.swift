import ReactorKit

/// The inspector's routing and response writing without sockets, for the fuzz target
/// (`Fuzz/ReactorKitFuzz`): the bytes the server writes first in answer to a request.
package struct ResponseProbe: Sendable {
  /// Every header name the server means to write (lowercased).
  package static let headerNames: Set<String> = [
    "content-type", "content-length", "connection", "cache-control", "x-content-type-options",
    "x-frame-options", "referrer-policy", "content-security-policy", "content-disposition",
    "x-skipped-actions", "www-authenticate", "x-accel-buffering",
  ]

  /// The probe's port and token, which an authorized request carries.
  package let port: UInt16 = 4242
  package let token = "0123456789abcdef0123456789abcdef"
  private let router: InspectorRouter

  /// A probe whose inspector knows the action types of `registry` (so export and import
  /// answer) and has no sources.
  package init(registry: ActionRegistry?) {
    let core = InspectorCore(
      capacity: 64, redaction: .default, registry: registry, limits: .default)
    router = InspectorRouter(
      core: core, authorization: RequestAuthorization(token: token, port: port),
      page: InspectorPage.bytes)
  }

  /// What the server writes in answer to `request` (the head only, for an event stream);
  /// with `authorize`, after giving it this probe's `Host`, `Origin` and token.
  package func response(to request: HTTPRequest, authorize: Bool) -> [UInt8] {
    var request = request
    if authorize {
      request.headers.removeAll { ["host", "origin", "authorization"].contains($0.name) }
      request.headers += [
        ("host", "127.0.0.1:\(port)"), ("origin", "http://127.0.0.1:\(port)"),
        ("authorization", "Bearer \(token)"),
      ]
    }
    switch router.handle(request, server: nil) {
    case .response(let response):
      return response.serialized(keepAlive: request.keepsAlive)
    case .stream(let headers, _):
      return HTTPResponse.streamHead(headers: headers)
    }
  }
}
