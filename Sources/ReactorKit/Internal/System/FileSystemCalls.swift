#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The POSIX file calls the plugins' files need (``SecureFiles``), with safe signatures: paths
/// are strings and buffers are arrays. Each returns what the system call returns and leaves
/// `errno` as the call set it; the policy (modes, retries, checks) stays with the callers.
enum FileSystemCalls {
  /// `open(path, flags, mode)`: a descriptor, or -1.
  static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    unsafe systemOpen(path, flags, mode)
  }

  /// `fstat(descriptor)`: the status, or `nil`.
  static func status(of descriptor: Int32) -> stat? {
    var status = stat()
    guard unsafe fstat(descriptor, &status) == 0 else { return nil }
    return status
  }

  /// `stat(path)`: the status of the file `path` names (following links), or `nil`.
  static func status(ofPath path: String) -> stat? {
    var status = stat()
    guard unsafe stat(path, &status) == 0 else { return nil }
    return status
  }

  /// `read(descriptor)` into the start of `buffer`, at most its count: the number of bytes
  /// read, 0 at the end of the file, or -1.
  static func read(_ descriptor: Int32, into buffer: inout [UInt8]) -> Int {
    unsafe buffer.withUnsafeMutableBytes { bytes in
      unsafe systemRead(descriptor, bytes.baseAddress, bytes.count)
    }
  }

  /// `write(descriptor)` of `bytes` from `offset` to the end: the number of bytes written, or
  /// -1.
  ///
  /// - Precondition: `offset` is within `bytes`.
  static func write(_ descriptor: Int32, _ bytes: [UInt8], from offset: Int) -> Int {
    precondition(offset >= 0 && offset <= bytes.count, "write offset outside the bytes")
    return unsafe bytes.withUnsafeBytes { buffer in
      unsafe systemWrite(
        descriptor, buffer.baseAddress.map { unsafe $0 + offset }, buffer.count - offset)
    }
  }

  /// `rename(source, target)`: 0, or -1.
  static func rename(_ source: String, _ target: String) -> Int32 {
    unsafe systemRename(source, target)
  }

  /// `link(source, target)`: 0, or -1 (`EEXIST` when `target` exists).
  static func link(_ source: String, _ target: String) -> Int32 {
    unsafe systemLink(source, target)
  }

  /// `unlink(path)`: 0, or -1.
  @discardableResult
  static func unlink(_ path: String) -> Int32 {
    unsafe systemUnlink(path)
  }

  /// Renames `source` to `target` only if `target` does not exist, with the system's exclusive
  /// rename (`renamex_np(RENAME_EXCL)` on Apple platforms, `renameat2(RENAME_NOREPLACE)` on
  /// Linux): 0, -1 with `errno` set, or `nil` when the C library has no such call.
  static func renameExclusively(_ source: String, _ target: String) -> Int32? {
    #if canImport(Darwin)
      return unsafe renamex_np(source, target, UInt32(RENAME_EXCL))
    #else
      guard let renameat2 = unsafe LinuxRename.renameat2 else { return nil }
      // AT_FDCWD is -100 and RENAME_NOREPLACE 1 on every Linux architecture.
      return unsafe renameat2(-100, source, -100, target, 1)
    #endif
  }

  /// Calls `body` with the name of each entry of `directory` (`.` and `..` included), in the
  /// order the system lists them. Returns `false` when the directory can't be opened.
  @discardableResult
  static func forEachEntry(in directory: String, _ body: (String) -> Void) -> Bool {
    guard let stream = unsafe opendir(directory) else { return false }
    defer { unsafe closedir(stream) }
    while let entry = unsafe readdir(stream) {
      // Read in place up to its terminator: `d_name` is declared as 256 bytes, but a dirent
      // record is only as long as its name, so copying the whole field reads past it.
      let name = unsafe withUnsafePointer(to: &entry.pointee.d_name) { field in
        unsafe field.withMemoryRebound(to: CChar.self, capacity: 1) { unsafe String(cString: $0) }
      }
      body(name)
    }
    return true
  }

  /// The system's message for the `errno` value `code` (`strerror`).
  static func errorMessage(_ code: Int32) -> String {
    unsafe String(cString: strerror(code))
  }

  /// The path of the file URL `url` as the file system spells it, or `nil` when it has none.
  static func fileSystemPath(of url: URL) -> String? {
    unsafe url.withUnsafeFileSystemRepresentation { unsafe $0.map { unsafe String(cString: $0) } }
  }
}

#if !canImport(Darwin)
  /// `renameat2`, which the C library exports but the Swift module doesn't declare.
  private enum LinuxRename {
    typealias Function =
      @convention(c) (
        Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32
      ) -> Int32

    static let renameat2: Function? = {
      guard let symbol = unsafe dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else {
        return nil
      }
      return unsafe unsafeBitCast(symbol, to: Function.self)
    }()
  }
#endif

// The C functions under names the wrappers above don't shadow.

@inline(__always)
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
  unsafe open(path, flags, mode)
}

@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  unsafe read(descriptor, buffer, count)
}

@inline(__always)
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  unsafe write(descriptor, buffer, count)
}

@inline(__always)
private func systemRename(_ source: UnsafePointer<CChar>, _ target: UnsafePointer<CChar>) -> Int32 {
  unsafe rename(source, target)
}

@inline(__always)
private func systemLink(_ source: UnsafePointer<CChar>, _ target: UnsafePointer<CChar>) -> Int32 {
  unsafe link(source, target)
}

@inline(__always)
private func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 {
  unsafe unlink(path)
}
