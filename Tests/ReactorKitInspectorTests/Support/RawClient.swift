import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// A bare TCP client for tests that need to send exactly the bytes they want (malformed,
/// slow, half-closed) and read exactly what the server answers. Every read has a timeout.
final class RawClient {
  let descriptor: Int32

  /// Connects to 127.0.0.1:`port`; fails the caller's expectation by returning nil.
  init?(port: UInt16) {
    #if canImport(Darwin)
      let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { return nil }
    // No send or connect waits longer than ten seconds.
    var limit = timeval(tv_sec: 10, tv_usec: 0)
    _ = unsafe setsockopt(
      descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let connected = unsafe withUnsafePointer(to: &address) {
      unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        unsafe connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(descriptor)
      return nil
    }
    var noSignal: Int32 = 1
    #if canImport(Darwin)
      _ = setsockopt(
        descriptor, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
    #endif
    _ = noSignal
    self.descriptor = descriptor
  }

  deinit { close(descriptor) }

  /// Sends `bytes`; false if the server already closed.
  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool {
    #if canImport(Darwin)
      let flags: Int32 = 0
    #else
      let flags = Int32(MSG_NOSIGNAL)
    #endif
    var offset = 0
    while offset < bytes.count {
      let written = unsafe bytes.withUnsafeBytes {
        unsafe systemSend(descriptor, $0.baseAddress! + offset, bytes.count - offset, flags)
      }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  @discardableResult
  func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  /// Makes closing send a reset instead of an orderly close (a peer that vanished).
  func resetOnClose() {
    var option = linger(l_onoff: 1, l_linger: 0)
    _ = unsafe setsockopt(
      descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
  }

  /// Closes the sending direction (a half-close).
  func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

  /// Reads until the server closes or `timeout` passes; returns what arrived and whether the
  /// server closed.
  func readAll(timeout: TimeInterval = 5) -> (text: String, closed: Bool) {
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = unsafe poll(&entry, 1, 50)
      if ready <= 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = unsafe chunk.withUnsafeMutableBytes {
        unsafe recv(descriptor, $0.baseAddress, 65_536, 0)
      }
      if count <= 0 { return (String(decoding: bytes, as: UTF8.self), true) }
      bytes += chunk[0..<count]
    }
    return (String(decoding: bytes, as: UTF8.self), false)
  }

  /// Reads until `text` contains `marker` or `timeout` passes.
  func read(until marker: String, timeout: TimeInterval = 5) -> String {
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if String(decoding: bytes, as: UTF8.self).contains(marker) { break }
      var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      if unsafe poll(&entry, 1, 50) <= 0 { continue }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = unsafe chunk.withUnsafeMutableBytes {
        unsafe recv(descriptor, $0.baseAddress, 65_536, 0)
      }
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The status code of the first response in `text`.
  static func status(of text: String) -> Int? {
    guard text.hasPrefix("HTTP/1.1 ") else { return nil }
    return Int(text.dropFirst(9).prefix(3))
  }
}

private func systemSend(
  _ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32
) -> Int {
  unsafe send(descriptor, bytes, count, flags)
}
