#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Thin wrappers over the POSIX socket calls the server uses: a loopback listener, reads with
/// a timeout, and writes that never raise `SIGPIPE`. The server's one boundary with the
/// operating system: descriptors are plain `Int32`s and bytes plain arrays, so the server's
/// code takes no pointers.
enum Socket {
  #if canImport(Darwin)
    private static let streamType = SOCK_STREAM
  #else
    private static let streamType = Int32(SOCK_STREAM.rawValue)
  #endif

  /// A listening TCP socket on `127.0.0.1:port` (`port` 0 picks a free port).
  ///
  /// - Returns: The descriptor and the port it is bound to.
  static func listenOnLoopback(port: UInt16, backlog: Int32 = 128) throws(InspectorError)
    -> (descriptor: Int32, port: UInt16)
  {
    let descriptor = socket(AF_INET, streamType, 0)
    guard descriptor >= 0 else { throw .cannotListen(port: port, reason: lastError()) }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    var reuse: Int32 = 1
    _ = unsafe setsockopt(
      descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian  // 127.0.0.1 only
    let bound = unsafe withUnsafePointer(to: &address) {
      unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        unsafe bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(descriptor, backlog) == 0 else {
      let reason = lastError()
      close(descriptor)
      throw .cannotListen(port: port, reason: reason)
    }
    var boundAddress = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = unsafe withUnsafeMutablePointer(to: &boundAddress) {
      unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        unsafe getsockname(descriptor, $0, &length)
      }
    }
    return (descriptor, UInt16(bigEndian: boundAddress.sin_port))
  }

  /// Accepts a connection, or returns `nil` (nothing pending, or an error).
  static func accept(_ listener: Int32) -> Int32? {
    #if canImport(Darwin)
      let descriptor = Darwin.accept(listener, nil, nil)
    #else
      let descriptor = Glibc.accept(listener, nil, nil)
    #endif
    guard descriptor >= 0 else { return nil }
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    #if canImport(Darwin)
      var noSignal: Int32 = 1
      _ = unsafe setsockopt(
        descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var noDelay: Int32 = 1
    _ = unsafe setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    return descriptor
  }

  /// Bounds how long one `send` may block, so a client that stops reading can't hold a
  /// server thread.
  static func setSendTimeout(_ descriptor: Int32, milliseconds: Int) {
    var time = timeval(
      tv_sec: .init(milliseconds / 1_000), tv_usec: .init((milliseconds % 1_000) * 1_000))
    _ = unsafe setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
  }

  /// What waiting for input found.
  enum Readiness {
    case readable
    case timedOut
    case closed
  }

  /// Waits up to `milliseconds` for `descriptor` to become readable (or hung up).
  static func waitReadable(_ descriptor: Int32, milliseconds: Int) -> Readiness {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let result = unsafe poll(&entry, 1, Int32(clamping: milliseconds))
    if result == 0 { return .timedOut }
    if result < 0 { return errno == EINTR ? .timedOut : .closed }
    if entry.revents & Int16(POLLIN) != 0 { return .readable }
    return .closed
  }

  /// Reads what is available into `buffer` (up to `limit` bytes); returns the count, 0 at the
  /// end of the stream, or -1 on an error.
  static func read(_ descriptor: Int32, into buffer: inout [UInt8], limit: Int) -> Int {
    var chunk = [UInt8](repeating: 0, count: limit)
    let count = unsafe chunk.withUnsafeMutableBytes {
      unsafe recv(descriptor, $0.baseAddress, limit, 0)
    }
    if count > 0 { buffer.append(contentsOf: chunk[0..<count]) }
    return count
  }

  /// Writes all of `bytes`; returns false when the peer is gone or a `send` timed out.
  @discardableResult
  static func write(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
    #if canImport(Darwin)
      let flags: Int32 = 0
    #else
      let flags = Int32(MSG_NOSIGNAL)
    #endif
    var offset = 0
    while offset < bytes.count {
      let written = unsafe bytes.withUnsafeBytes {
        unsafe send(descriptor, $0.baseAddress! + offset, bytes.count - offset, flags)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Stops both directions, waking any thread blocked on the socket.
  static func shutdownBoth(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
  }

  /// Stops the receiving direction: a thread waiting to read wakes, reads what already
  /// arrived, then the end of the stream; writing still works.
  static func shutdownReading(_ descriptor: Int32) {
    _ = shutdown(descriptor, Int32(SHUT_RD))
  }

  static func close(_ descriptor: Int32) {
    #if canImport(Darwin)
      _ = Darwin.close(descriptor)
    #else
      _ = Glibc.close(descriptor)
    #endif
  }

  static func lastError() -> String {
    unsafe String(cString: strerror(errno))
  }
}
