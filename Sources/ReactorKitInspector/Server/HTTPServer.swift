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
/// connection. Who may hold a connection is ``ConnectionSlots``' decision: clients without
/// the token share a small quota with a short deadline, event streams a bounded number of
/// slots, and a request with the token always finds one.
final class HTTPServer: @unchecked Sendable {
  // Safety: `open` and `slots` are guarded by `lock`; `stopped` and `activeConnections` are
  // atomic; the rest is immutable.
  let port: UInt16
  let limits: InspectorLimits
  private let listener: Int32
  private let handler: @Sendable (HTTPRequest) -> RouteResult
  private let authenticate: @Sendable (HTTPRequest) -> Bool
  private let parser: HTTPRequestParser
  private let stoppedBox = AtomicBox<Bool>(false)
  private var stopped: UnsafeAtomic<Bool> { stoppedBox.atomic }
  private let acceptorExitedBox = AtomicBox<Bool>(false)
  private var acceptorExited: UnsafeAtomic<Bool> { acceptorExitedBox.atomic }
  /// The connection threads running (those closed to make room included, until they exit).
  let activeConnectionsBox = AtomicBox<Int>(0)
  var activeConnections: UnsafeAtomic<Int> { activeConnectionsBox.atomic }
  private let lock = Lock()
  private var open: Set<Int32> = []
  private var slots: ConnectionSlots
  /// The most connection threads at once: every slot, and as many again closed to make room
  /// and still exiting.
  private let maximumThreads: Int
  #if DEBUG
    /// Test seams, guarded by `lock`: called by a connection's thread once it is done, before
    /// it frees its thread; and by the acceptor when every connection thread is taken.
    private var connectionThreadWillEnd: (@Sendable () -> Void)?
    private var threadLimitReached: (@Sendable () -> Void)?

    /// Sets the test seams (see above); `nil` removes them.
    func setTestHooks(
      connectionThreadWillEnd: (@Sendable () -> Void)?,
      threadLimitReached: (@Sendable () -> Void)?
    ) {
      lock.withLock {
        self.connectionThreadWillEnd = connectionThreadWillEnd
        self.threadLimitReached = threadLimitReached
      }
    }
  #endif

  /// - Parameters:
  ///   - authenticate: Whether a request carries the token (its connection then leaves the
  ///     unauthenticated quota).
  ///   - handler: The answer to a request.
  init(
    port requestedPort: UInt16, limits: InspectorLimits,
    authenticate: @escaping @Sendable (HTTPRequest) -> Bool,
    handler: @escaping @Sendable (HTTPRequest) -> RouteResult
  ) throws(InspectorError) {
    let (descriptor, port) = try Socket.listenOnLoopback(port: requestedPort)
    self.listener = descriptor
    self.port = port
    self.limits = limits
    self.authenticate = authenticate
    self.handler = handler
    slots = ConnectionSlots(limits: limits)
    maximumThreads = 2 * slots.maximumConnections
    parser = HTTPRequestParser(
      maximumHeaderBytes: limits.maximumHeaderBytes, maximumBodyBytes: limits.maximumBodyBytes)
  }

  var isStopped: Bool { stopped.load(ordering: .acquiring) }

  /// How many connections of `kind` hold a slot now.
  func connectionCount(_ kind: ConnectionSlots.Kind) -> Int {
    lock.withLock { slots.count(kind) }
  }

  func start() {
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "ReactorKitInspector.accept"
    thread.start()
  }

  /// Stops accepting, ends every connection, and waits (briefly) for the acceptor to exit.
  func stop() {
    guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
    // Under the lock: a descriptor in `open` is not closed yet (nor reused).
    lock.withLock { for descriptor in open { Socket.shutdownBoth(descriptor) } }
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
      if activeConnections.load(ordering: .acquiring) >= maximumThreads {
        #if DEBUG
          lock.withLock { threadLimitReached }?()
        #endif
        guard awaitFreeThread() else {
          refuse(descriptor)
          continue
        }
      }
      let admission = lock.withLock { () -> ConnectionSlots.Admission in
        let admission = slots.admit(descriptor)
        guard case .admitted(_, let closing, let interrupting) = admission else {
          return admission
        }
        open.insert(descriptor)
        // Wakes their threads, which answer a request that already arrived and close; the
        // slots are already free. Under the lock: a descriptor in `open` is not closed yet.
        for victim in closing where open.contains(victim) {
          if interrupting.contains(victim) {
            Socket.shutdownBoth(victim)
          } else {
            Socket.shutdownReading(victim)
          }
        }
        return admission
      }
      guard case .admitted(let id, _, _) = admission else {
        refuse(descriptor)
        continue
      }
      activeConnections.add(1, ordering: .acquiringAndReleasing)
      let thread = Thread { [self] in
        serve(descriptor, id: id)
        #if DEBUG
          lock.withLock { connectionThreadWillEnd }?()
        #endif
        lock.withLock {
          slots.remove(id)
          _ = open.remove(descriptor)
        }
        Socket.close(descriptor)
        activeConnections.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      }
      thread.name = "ReactorKitInspector.connection"
      thread.start()
    }
  }

  /// Waits until fewer than `maximumThreads` connection threads run; false when that took
  /// longer than the write timeout, or the server stopped.
  ///
  /// Every thread is taken only when at least half of them serve connections closed to make
  /// room: those were woken or shut down and exit promptly (one answering a request that
  /// already arrived, within the write timeout). Refusing meanwhile would turn away the
  /// newcomer that may carry the token, whenever clients without it open connections faster
  /// than the closed ones exit; waiting also slows such clients down.
  private func awaitFreeThread() -> Bool {
    let deadline = ContinuousClock.now + limits.writeTimeout
    while activeConnections.load(ordering: .acquiring) >= maximumThreads {
      if isStopped || ContinuousClock.now >= deadline { return false }
      usleep(1_000)
    }
    return true
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

  private func update(_ id: Int, busy: Bool, partialRequest: Bool) {
    lock.withLock { slots.update(id, busy: busy, partialRequest: partialRequest) }
  }

  private func holdsSlot(_ id: Int) -> Bool {
    lock.withLock { slots.holds(id) }
  }

  /// Serves `descriptor` until it closes, times out, or loses its slot (then it answers a
  /// request that already arrived, and closes).
  private func serve(_ descriptor: Int32, id: Int) {
    Socket.setSendTimeout(descriptor, milliseconds: limits.writeTimeout.milliseconds)
    var buffer: [UInt8] = []
    var peerClosed = false
    var lostSlot = false
    var authenticated = false
    var requestStart: ContinuousClock.Instant?
    var idleStart = ContinuousClock.now
    while !isStopped {
      switch parser.parse(buffer) {
      case .request(let request, let consumed):
        buffer.removeFirst(consumed)
        requestStart = buffer.isEmpty ? nil : .now
        if !authenticated && authenticate(request) {
          authenticated = true
          lock.withLock { slots.authenticate(id) }
        }
        update(id, busy: true, partialRequest: false)
        let keepAlive = request.keepsAlive && !peerClosed && !lostSlot && holdsSlot(id)
        switch handler(request) {
        case .response(let response):
          let bytes = response.serialized(
            keepAlive: keepAlive, includesBody: request.method != "HEAD")
          guard Socket.write(descriptor, bytes), keepAlive
          else { return }
          idleStart = .now
          update(id, busy: false, partialRequest: !buffer.isEmpty)
        case .stream(let headers, let body):
          guard lock.withLock({ slots.beginStream(id) }) else {
            let response = HTTPResponse.error(503, "too many event streams")
            Socket.write(descriptor, response.serialized(keepAlive: false))
            return
          }
          guard Socket.write(descriptor, HTTPResponse.streamHead(headers: headers)) else {
            return
          }
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
      if peerClosed || lostSlot { return }  // an incomplete request: nothing more is read
      if !holdsSlot(id) {
        // Closed to make room: reads what already arrived, answers it if it is a request.
        lostSlot = true
        if Socket.waitReadable(descriptor, milliseconds: 0) != .timedOut {
          _ = Socket.read(descriptor, into: &buffer, limit: 16_384)
        }
        continue
      }
      // A connection without the token gets the short deadline, for a request and idle alike.
      let requestTimeout =
        authenticated
        ? limits.requestTimeout : min(limits.requestTimeout, limits.unauthenticatedTimeout)
      let idleTimeout =
        authenticated ? limits.idleTimeout : min(limits.idleTimeout, limits.unauthenticatedTimeout)
      let now = ContinuousClock.now
      let remaining: Duration
      if let requestStart {
        remaining = requestTimeout - (now - requestStart)
        if remaining <= .zero {
          Socket.write(
            descriptor,
            HTTPResponse.error(408, "the request took too long").serialized(keepAlive: false))
          return
        }
      } else {
        remaining = idleTimeout - (now - idleStart)
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
          update(id, busy: false, partialRequest: true)
        }
      }
    }
  }
}
