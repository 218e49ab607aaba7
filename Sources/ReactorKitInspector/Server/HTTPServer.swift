import Foundation
import ReactorKit

/// What the router answers a request with.
enum RouteResult {
  /// A complete response.
  case response(HTTPResponse)
  /// A streamed response (server-sent events): the headers, then `body` writes until the
  /// client goes away or the server stops. The connection closes afterwards.
  case stream(headers: [(name: String, value: String)], body: @Sendable (StreamWriter) -> Void)
}

/// The socket of a streamed response, for its writer.
struct StreamWriter: Sendable {
  let descriptor: Int32
  let server: HTTPServer

  /// Writes `text`; false once the client is gone (or a write timed out).
  func write(_ text: String) -> Bool {
    Socket.write(descriptor, Array(text.utf8))
  }

  /// Whether the stream should end: the server stopped or the client hung up.
  func shouldStop() -> Bool {
    if server.isStopped { return true }
    // A browser sends nothing on an event stream: readable means it closed (or misbehaves).
    return Socket.waitReadable(descriptor, milliseconds: 0) != .timedOut
  }
}

/// An HTTP/1.1 server on the loopback interface: one thread accepts, one thread serves each
/// connection (at most ``InspectorLimits/maximumConnections``; more are refused with 503).
final class HTTPServer: @unchecked Sendable {
  // Safety: `open` is guarded by `lock`; `stopped` and `activeConnections` are atomic; the
  // rest is immutable.
  let port: UInt16
  let limits: InspectorLimits
  private let listener: Int32
  private let handler: @Sendable (HTTPRequest) -> RouteResult
  private let parser: HTTPRequestParser
  private let stoppedBox = AtomicBox<Bool>(false)
  private var stopped: UnsafeAtomic<Bool> { stoppedBox.atomic }
  private let acceptorExitedBox = AtomicBox<Bool>(false)
  private var acceptorExited: UnsafeAtomic<Bool> { acceptorExitedBox.atomic }
  let activeConnectionsBox = AtomicBox<Int>(0)
  var activeConnections: UnsafeAtomic<Int> { activeConnectionsBox.atomic }
  private let lock = Lock()
  private var open: Set<Int32> = []

  init(
    port requestedPort: UInt16, limits: InspectorLimits,
    handler: @escaping @Sendable (HTTPRequest) -> RouteResult
  ) throws(InspectorError) {
    let (descriptor, port) = try Socket.listenOnLoopback(port: requestedPort)
    self.listener = descriptor
    self.port = port
    self.limits = limits
    self.handler = handler
    parser = HTTPRequestParser(
      maximumHeaderBytes: limits.maximumHeaderBytes, maximumBodyBytes: limits.maximumBodyBytes)
  }

  var isStopped: Bool { stopped.load(ordering: .acquiring) }

  func start() {
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "ReactorKitInspector.accept"
    thread.start()
  }

  /// Stops accepting, ends every connection, and waits (briefly) for the acceptor to exit.
  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let descriptors = lock.withLock { open }
    for descriptor in descriptors { Socket.shutdownBoth(descriptor) }
    let deadline = ContinuousClock.now + .seconds(2)
    while !acceptorExited.load(ordering: .acquiring) && ContinuousClock.now < deadline {
      usleep(1_000)
    }
  }

  private func acceptLoop() {
    defer {
      Socket.close(listener)
      acceptorExited.store(true, ordering: .releasing)
    }
    while !isStopped {
      guard Socket.waitReadable(listener, milliseconds: 100) == .readable,
        let descriptor = Socket.accept(listener)
      else { continue }
      guard !isStopped else {
        Socket.close(descriptor)
        return
      }
      if activeConnections.add(1, ordering: .acquiringAndReleasing).newValue
        > limits.maximumConnections
      {
        activeConnections.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        refuse(descriptor)
        continue
      }
      lock.withLock { _ = open.insert(descriptor) }
      let thread = Thread { [self] in
        serve(descriptor)
        lock.withLock { _ = open.remove(descriptor) }
        Socket.close(descriptor)
        activeConnections.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      }
      thread.name = "ReactorKitInspector.connection"
      thread.start()
    }
  }

  /// Answers 503 without reading the request, on the accepting thread (bounded by a short
  /// write timeout), and closes.
  private func refuse(_ descriptor: Int32) {
    Socket.setSendTimeout(descriptor, milliseconds: 100)
    let response = HTTPResponse.error(503, "too many connections")
    Socket.write(descriptor, response.serialized(keepAlive: false))
    Socket.shutdownBoth(descriptor)
    Socket.close(descriptor)
  }

  // MARK: - One connection

  private func serve(_ descriptor: Int32) {
    Socket.setSendTimeout(descriptor, milliseconds: limits.writeTimeout.milliseconds)
    var buffer: [UInt8] = []
    var peerClosed = false
    var requestStart: ContinuousClock.Instant?
    var idleStart = ContinuousClock.now
    while !isStopped {
      switch parser.parse(buffer) {
      case .request(let request, let consumed):
        buffer.removeFirst(consumed)
        requestStart = buffer.isEmpty ? nil : .now
        let keepAlive = request.keepsAlive && !peerClosed
        switch handler(request) {
        case .response(let response):
          let bytes = response.serialized(
            keepAlive: keepAlive, includesBody: request.method != "HEAD")
          guard Socket.write(descriptor, bytes), keepAlive
          else { return }
          idleStart = .now
        case .stream(let headers, let body):
          var head = "HTTP/1.1 200 OK\r\n"
          for (name, value) in headers { head += "\(name): \(value)\r\n" }
          head += "Connection: close\r\n" + HTTPResponse.commonHeaders + "\r\n"
          guard Socket.write(descriptor, Array(head.utf8)) else { return }
          body(StreamWriter(descriptor: descriptor, server: self))
          return
        }
        continue
      case .failure(let status, let reason):
        let response = HTTPResponse.error(status, reason)
        Socket.write(descriptor, response.serialized(keepAlive: false))
        return
      case .incomplete:
        break
      }
      if peerClosed { return }  // half-closed with an incomplete request: nothing more comes
      let now = ContinuousClock.now
      let remaining: Duration
      if let requestStart {
        remaining = limits.requestTimeout - (now - requestStart)
        if remaining <= .zero {
          Socket.write(
            descriptor,
            HTTPResponse.error(408, "the request took too long").serialized(keepAlive: false))
          return
        }
      } else {
        remaining = limits.idleTimeout - (now - idleStart)
        if remaining <= .zero { return }
      }
      switch Socket.waitReadable(descriptor, milliseconds: min(100, max(1, remaining.milliseconds)))
      {
      case .timedOut:
        continue
      case .closed, .readable:
        let count = Socket.read(descriptor, into: &buffer, limit: 16_384)
        if count <= 0 {
          peerClosed = true
        } else if requestStart == nil {
          requestStart = .now
        }
      }
    }
  }
}
