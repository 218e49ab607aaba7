#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A failed file-system call: what was attempted, on which path, and the system's reason.
package struct FileSystemError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The operation, such as `open` or `rename`.
  package let operation: String
  package let path: String
  /// The `errno` value; 0 for problems detected by the library itself.
  package let code: Int32
  /// The system's message for `code`, or the library's own.
  package let reason: String

  package init(_ operation: String, path: String, code: Int32 = errno) {
    self.operation = operation
    self.path = path
    self.code = code
    self.reason = FileSystemCalls.errorMessage(code)
  }

  package init(_ operation: String, path: String, reason: String) {
    self.operation = operation
    self.path = path
    self.code = 0
    self.reason = reason
  }

  package var description: String { "\(operation) \(path): \(reason)" }
}

/// File operations for state, recordings and logs: files are created owner-only (0600), reads
/// are bounded, and replacing a file is atomic.
package enum SecureFiles {
  /// The mode of every file the library creates: read and write for the owner only.
  package static let ownerOnlyMode: mode_t = 0o600

  /// The stages of ``writeAtomically(_:to:failAt:)`` a test can make fail, to simulate a crash
  /// or a full disk.
  package enum WriteStage: Sendable {
    /// After half of the bytes reached the temporary file.
    case partialWrite
    /// After the temporary file was written and synced, before the rename.
    case beforeRename
  }

  // MARK: - Reading

  /// Reads the whole regular file at `path`, refusing files larger than `maximumSize`.
  ///
  /// - Returns: The bytes, or `nil` when the file does not exist.
  /// - Throws: ``BoundedReadError``.
  package static func read(_ path: String, maximumSize: Int) throws(BoundedReadError) -> [UInt8]? {
    // Non-blocking, so a FIFO at the path can't hang the caller; regular files ignore it.
    let descriptor = FileSystemCalls.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if descriptor < 0 {
      if errno == ENOENT { return nil }
      throw .system(FileSystemError("open", path: path))
    }
    defer { close(descriptor) }
    guard let status = FileSystemCalls.status(of: descriptor) else {
      throw .system(FileSystemError("stat", path: path))
    }
    guard (status.st_mode & S_IFMT) == S_IFREG else {
      throw .system(FileSystemError("read", path: path, reason: "not a regular file"))
    }
    if Int(status.st_size) > maximumSize {
      throw .tooLarge(size: Int(status.st_size))
    }
    // The size may change while reading: never read more than one byte past the limit.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Int(status.st_size))
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = FileSystemCalls.read(descriptor, into: &chunk)
      if count < 0 {
        if errno == EINTR { continue }
        throw .system(FileSystemError("read", path: path))
      }
      if count == 0 { break }
      bytes.append(contentsOf: chunk[0..<count])
      if bytes.count > maximumSize { throw .tooLarge(size: bytes.count) }
    }
    return bytes
  }

  /// Why ``read(_:maximumSize:)`` failed.
  package enum BoundedReadError: Error, Equatable {
    case system(FileSystemError)
    /// The file is larger than allowed; `size` is what was seen (at least the limit plus 1).
    case tooLarge(size: Int)
  }

  // MARK: - Appending

  /// Opens `path` for appending, creating it owner-only if needed; an existing file is made
  /// owner-only too.
  ///
  /// Only a regular file with a single link is accepted: a symbolic link, a FIFO or device
  /// (opened without blocking, so a FIFO can't hang the caller), a directory, or a hard link to
  /// another file is refused before anything is written or truncated.
  ///
  /// - Parameter truncate: Whether to empty an existing file.
  /// - Returns: The file descriptor; close it when done.
  package static func openForAppending(_ path: String, truncate: Bool = false)
    throws(FileSystemError) -> Int32
  {
    let flags = O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK
    let descriptor = FileSystemCalls.open(path, flags, ownerOnlyMode)
    guard descriptor >= 0 else {
      if errno == ENXIO {
        // A FIFO without a reader: a non-blocking open for writing fails instead of waiting.
        throw FileSystemError("open", path: path, reason: "not a regular file (a FIFO)")
      }
      throw FileSystemError("open", path: path)
    }
    do throws(FileSystemError) {
      guard let status = FileSystemCalls.status(of: descriptor) else {
        throw FileSystemError("stat", path: path)
      }
      guard (status.st_mode & S_IFMT) == S_IFREG else {
        throw FileSystemError("open", path: path, reason: "not a regular file")
      }
      guard status.st_nlink == 1 else {
        throw FileSystemError(
          "open", path: path,
          reason: "the file has \(status.st_nlink) hard links; a file shared with another name "
            + "is never written to")
      }
      if truncate, ftruncate(descriptor, 0) != 0 {
        throw FileSystemError("truncate", path: path)
      }
      guard fchmod(descriptor, ownerOnlyMode) == 0 else {
        throw FileSystemError("chmod", path: path)
      }
    } catch {
      close(descriptor)
      throw error
    }
    return descriptor
  }

  /// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions.
  package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
    throws(FileSystemError)
  {
    var offset = 0
    while offset < bytes.count {
      let written = FileSystemCalls.write(descriptor, bytes, from: offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw FileSystemError("write", path: path)
      }
      offset += written
    }
  }

  /// Empties the file open at `descriptor` (opened for appending: the next write starts the
  /// file again).
  package static func truncate(_ descriptor: Int32, path: String) throws(FileSystemError) {
    while ftruncate(descriptor, 0) != 0 {
      if errno == EINTR { continue }
      throw FileSystemError("ftruncate", path: path)
    }
  }

  // MARK: - Atomic replacement

  /// Replaces the file at `path` with `bytes` atomically: a reader (or a restart after a
  /// crash) sees either the old file or the new one, never a mix.
  ///
  /// Writes a temporary owner-only file in the same directory, syncs it, renames it over
  /// `path` and syncs the directory. On failure the temporary file is removed and the old
  /// file is left as it was.
  ///
  /// - Parameter failAt: A stage at which to fail on purpose (tests only).
  package static func writeAtomically(
    _ bytes: [UInt8], to path: String, failAt: WriteStage? = nil
  ) throws(FileSystemError) {
    let directory = directoryPath(of: path)
    let temporary = temporaryPath(for: path)
    let descriptor = FileSystemCalls.open(
      temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, ownerOnlyMode)
    guard descriptor >= 0 else { throw FileSystemError("create", path: temporary) }
    var isOpen = true
    do throws(FileSystemError) {
      if failAt == .partialWrite {
        try writeAll(Array(bytes.prefix(bytes.count / 2)), to: descriptor, path: temporary)
        throw FileSystemError("write", path: temporary, reason: "simulated failure")
      }
      try writeAll(bytes, to: descriptor, path: temporary)
      guard fsync(descriptor) == 0 else { throw FileSystemError("fsync", path: temporary) }
      isOpen = false
      guard close(descriptor) == 0 else { throw FileSystemError("close", path: temporary) }
      if failAt == .beforeRename {
        throw FileSystemError("rename", path: temporary, reason: "simulated failure")
      }
      guard FileSystemCalls.rename(temporary, path) == 0 else {
        throw FileSystemError("rename", path: path)
      }
    } catch {
      if isOpen { close(descriptor) }
      FileSystemCalls.unlink(temporary)
      throw error
    }
    syncDirectory(directory)
  }

  /// The prefix of the temporary files ``writeAtomically(_:to:failAt:)`` makes for `path`.
  package static func temporaryPrefix(for path: String) -> String {
    directoryPath(of: path) + "/." + fileName(of: path) + ".tmp-"
  }

  private static func temporaryPath(for path: String) -> String {
    temporaryPrefix(for: path) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Removes temporary files left by writes that never finished (a crash mid-write).
  ///
  /// A temporary file's name carries the id of the process writing it: files of processes that
  /// are still running (another process sharing the state file, in the middle of a write, or
  /// this one) are left alone.
  package static func removeStaleTemporaryFiles(for path: String) {
    let prefix = fileName(of: temporaryPrefix(for: path))
    let directory = directoryPath(of: path)
    var stale: [String] = []
    let isOpen = FileSystemCalls.forEachEntry(in: directory) { name in
      guard name.hasPrefix(prefix) else { return }
      let owner = name.dropFirst(prefix.count).prefix(while: { $0 != "-" })
      if let pid = pid_t(owner), isRunning(pid) { return }
      stale.append(name)
    }
    guard isOpen else { return }
    for name in stale { FileSystemCalls.unlink(directory + "/" + name) }
  }

  /// Whether a process with this id exists (ours included).
  private static func isRunning(_ pid: pid_t) -> Bool {
    guard pid > 0 else { return false }
    if pid == getpid() { return true }
    return kill(pid, 0) == 0 || errno == EPERM
  }

  /// The descriptor of the process's standard error.
  package static let standardError: Int32 = STDERR_FILENO

  /// Syncs the open file `descriptor` to disk; nothing for a negative (never opened)
  /// descriptor. Best effort: errors are ignored.
  package static func syncDescriptor(_ descriptor: Int32) {
    if descriptor >= 0 { _ = fsync(descriptor) }
  }

  /// Closes `descriptor`; nothing for a negative (never opened) descriptor.
  package static func closeDescriptor(_ descriptor: Int32) {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Syncs a directory so a rename in it survives a power loss. Best effort: some file
  /// systems don't support it.
  package static func syncDirectory(_ directory: String) {
    let descriptor = FileSystemCalls.open(directory, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// Renames `path` to `<path>.<suffix>-<timestamp>` (adding `-2`, `-3`, … if taken) and
  /// returns the new path.
  ///
  /// The rename never replaces an existing file, even one that appears at the chosen name
  /// while this runs (another process moving its copy aside at the same second): it uses
  /// `renameat2(RENAME_NOREPLACE)` on Linux and `renamex_np(RENAME_EXCL)` on Apple platforms,
  /// or `link` then `unlink` where the file system supports neither.
  package static func moveAside(_ path: String, suffix: String, timestamp: String)
    throws(FileSystemError) -> String
  {
    var attempt = 1
    while true {
      let candidate =
        attempt == 1
        ? "\(path).\(suffix)-\(timestamp)" : "\(path).\(suffix)-\(timestamp)-\(attempt)"
      if renameWithoutReplacing(path, candidate) {
        syncDirectory(directoryPath(of: path))
        return candidate
      }
      guard errno == EEXIST, attempt < 10_000 else {
        throw FileSystemError("rename", path: path)
      }
      attempt += 1
    }
  }

  /// Renames `source` to `target` unless `target` exists; `false` with `errno` set otherwise
  /// (`EEXIST` when `target` exists).
  package static func renameWithoutReplacing(_ source: String, _ target: String) -> Bool {
    if let result = FileSystemCalls.renameExclusively(source, target) {
      if result == 0 { return true }
      #if canImport(Darwin)
        guard errno == ENOTSUP || errno == EINVAL else { return false }
      #else
        guard errno == EINVAL || errno == ENOSYS || errno == ENOTSUP else { return false }
      #endif
    }
    // The file system can't rename exclusively: a link fails if the target exists.
    guard FileSystemCalls.link(source, target) == 0 else { return false }
    FileSystemCalls.unlink(source)
    return true
  }

  /// The permission bits of the file at `path`, or `nil` if it can't be examined.
  package static func permissions(of path: String) -> mode_t? {
    guard let status = FileSystemCalls.status(ofPath: path) else { return nil }
    return status.st_mode & 0o777
  }

  // MARK: - Paths

  package static func directoryPath(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    if slash == path.startIndex { return "/" }
    return String(path[..<slash])
  }

  package static func fileName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
