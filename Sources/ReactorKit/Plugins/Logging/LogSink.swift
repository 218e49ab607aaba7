#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where a ``LoggingPlugin`` writes its events: standard error, a file, or your own closure.
///
/// A plugin calls its sink for one event at a time, in sequence order, never concurrently, on
/// the plugin's own queue (or the thread calling ``LoggingPlugin/flush()``): a sink needs no
/// locking of its own, but its closures must be `@Sendable`.
public struct LogSink: Sendable {
  let receive: @Sendable (LogEvent) -> Void
  let flush: @Sendable () -> Void
  /// Whether the sink wants events now; asked on the producing thread before anything is
  /// copied or rendered.
  public let isEnabled: @Sendable () -> Bool

  /// Creates a sink that hands each event to `receive`.
  ///
  /// - Parameters:
  ///   - isEnabled: Whether the sink wants events now (a log level, a switch in a debug menu);
  ///     called on the producing thread for each action, mutation or state change, so keep it
  ///     cheap. While it returns `false`, logging costs almost nothing.
  ///   - receive: Called with each event.
  ///   - flush: Called by ``LoggingPlugin/flush()`` after the last event was handed over.
  public init(
    isEnabled: @escaping @Sendable () -> Bool = { true },
    flush: @escaping @Sendable () -> Void = {},
    _ receive: @escaping @Sendable (LogEvent) -> Void
  ) {
    self.isEnabled = isEnabled
    self.receive = receive
    self.flush = flush
  }

  /// A sink that wants nothing: the plugin renders, copies and queues nothing (for a release
  /// build that keeps the logger installed but silent).
  public static var discarding: LogSink {
    LogSink(isEnabled: { false }, { _ in })
  }

  /// A sink that formats each event and hands the text to `write`, without a trailing
  /// newline (a text event with state changes spans several lines).
  public static func lines(
    format: LogFormat = .text, _ write: @escaping @Sendable (String) -> Void
  ) -> LogSink {
    LogSink { write($0.formatted(as: format)) }
  }

  /// A sink that writes each event to standard error, one line (or, for text state events,
  /// one block of lines) per event.
  public static func standardError(format: LogFormat = .text) -> LogSink {
    LogSink { event in
      let bytes = Array((event.formatted(as: format) + "\n").utf8)
      try? SecureFiles.writeAll(bytes, to: SecureFiles.standardError, path: "standard error")
    }
  }

  /// A sink that appends each event to the file at `url`, creating it owner-only (mode 0600)
  /// if needed; an existing file is made owner-only and appended to. Only a regular file with a
  /// single link is accepted: a symbolic link or a hard link to another file at `url` is
  /// refused (so a log can't be redirected into, or truncate, another file), and so is a FIFO,
  /// without blocking.
  ///
  /// Each event is written with one `write` call, unbuffered, so the file is complete up to
  /// the last event even if the app crashes. Write failures after opening are ignored: logging
  /// never stops the app.
  ///
  /// - Parameters:
  ///   - url: A file URL.
  ///   - format: JSON lines by default.
  ///   - truncate: Whether to empty an existing file first.
  /// - Throws: ``LogFileError`` when the file can't be opened or is refused.
  public static func file(_ url: URL, format: LogFormat = .jsonLines, truncate: Bool = false)
    throws(LogFileError) -> LogSink
  {
    let path = url.fileSystemPath
    let descriptor: Int32
    do {
      descriptor = try SecureFiles.openForAppending(path, truncate: truncate)
    } catch {
      throw LogFileError(path: path, reason: error.reason)
    }
    let file = LogFile(descriptor: descriptor, path: path)
    return LogSink(
      flush: { file.sync() }, { event in file.write(event.formatted(as: format) + "\n") })
  }
}

/// A log file could not be opened.
public struct LogFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file's path.
  public let path: String
  /// The system's reason.
  public let reason: String

  public var description: String { "Cannot open the log file \(path): \(reason)." }
}

/// An open log file, closed when the last sink using it is gone.
private final class LogFile: Sendable {
  let descriptor: Int32
  let path: String

  init(descriptor: Int32, path: String) {
    self.descriptor = descriptor
    self.path = path
  }

  deinit { SecureFiles.closeDescriptor(descriptor) }

  func write(_ text: String) {
    try? SecureFiles.writeAll(Array(text.utf8), to: descriptor, path: path)
  }

  func sync() { SecureFiles.syncDescriptor(descriptor) }
}

extension URL {
  /// The path of a file URL as the file system spells it.
  var fileSystemPath: String {
    FileSystemCalls.fileSystemPath(of: self) ?? path
  }
}
