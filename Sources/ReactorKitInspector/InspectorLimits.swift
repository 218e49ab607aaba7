/// The bounds an ``Inspector``'s server keeps, so that no client can make it (or the app)
/// wait, grow without limit or crash.
public struct InspectorLimits: Sendable, Equatable {
  /// The most bytes in a request line and its headers; more is answered with 431.
  public var maximumHeaderBytes: Int
  /// The largest request body (an imported recording, a dispatched action); more is 413.
  public var maximumBodyBytes: Int
  /// The most connections served at once. A newcomer finds room by closing the oldest
  /// connection without the token, or an idle one; only when every connection is busy
  /// answering or streaming is it answered with 503 and closed.
  public var maximumConnections: Int
  /// The most connections that have not sent the token yet (a page loading, or anyone else);
  /// a newcomer beyond it closes the oldest of them.
  public var maximumUnauthenticatedConnections: Int
  /// How long a connection that has not sent the token may stay idle, or take for a request,
  /// when that is shorter than ``idleTimeout`` or ``requestTimeout``.
  public var unauthenticatedTimeout: Duration
  /// The most event streams open at once (less than ``maximumConnections``, so streams always
  /// leave room for API requests); more are answered with 503.
  public var maximumEventStreams: Int
  /// How long a connection may stay open between requests.
  public var idleTimeout: Duration
  /// How long a client may take to send one whole request once it started; then 408.
  public var requestTimeout: Duration
  /// How long one write to a client may block before the connection is dropped.
  public var writeTimeout: Duration
  /// How often an open event stream gets a keep-alive comment.
  public var keepAliveInterval: Duration
  /// About how many bytes of memory the recorded timeline may keep alive (states, actions,
  /// renderings for the page); past it the oldest events are dropped, and a page that had not
  /// read them is told how many it missed. States count the storage that copy-on-write gave
  /// them, not what they share with the previous state.
  public var maximumRetainedBytes: Int

  /// Creates limits; the defaults suit a developer's browser.
  public init(
    maximumHeaderBytes: Int = 8_192, maximumBodyBytes: Int = 8 << 20,
    maximumConnections: Int = 32, idleTimeout: Duration = .seconds(30),
    requestTimeout: Duration = .seconds(10), writeTimeout: Duration = .seconds(5),
    keepAliveInterval: Duration = .seconds(15), maximumUnauthenticatedConnections: Int = 8,
    unauthenticatedTimeout: Duration = .seconds(2), maximumEventStreams: Int = 8,
    maximumRetainedBytes: Int = 64 << 20
  ) {
    self.maximumHeaderBytes = maximumHeaderBytes
    self.maximumBodyBytes = maximumBodyBytes
    self.maximumConnections = maximumConnections
    self.idleTimeout = idleTimeout
    self.requestTimeout = requestTimeout
    self.writeTimeout = writeTimeout
    self.keepAliveInterval = keepAliveInterval
    self.maximumUnauthenticatedConnections = maximumUnauthenticatedConnections
    self.unauthenticatedTimeout = unauthenticatedTimeout
    self.maximumEventStreams = maximumEventStreams
    self.maximumRetainedBytes = maximumRetainedBytes
  }

  /// The defaults: 8 KiB of headers, 8 MiB bodies, 32 connections (8 without the token, 2 s
  /// for them; 8 event streams), 30 s idle, 10 s per request, 5 s per write, a keep-alive
  /// every 15 s, 64 MiB of recorded events.
  public static let `default` = InspectorLimits()
}

extension Duration {
  var milliseconds: Int {
    let (seconds, attoseconds) = components
    return Int(clamping: seconds &* 1_000 &+ attoseconds / 1_000_000_000_000_000)
  }
}

/// Why an ``Inspector`` could not start.
public enum InspectorError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The server could not listen on the loopback port.
  case cannotListen(port: UInt16, reason: String)

  public var description: String {
    switch self {
    case .cannotListen(let port, let reason):
      return "The inspector cannot listen on 127.0.0.1:\(port): \(reason)."
    }
  }
}
