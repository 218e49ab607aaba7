import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The size of a terminal in character cells.
public struct TerminalSize: Equatable, Sendable {
  public var columns: Int
  public var rows: Int

  public init(columns: Int, rows: Int) {
    self.columns = columns
    self.rows = rows
  }

  /// The size used when there is no terminal: wide enough for the examples, unbounded rows.
  public static let unbounded = TerminalSize(columns: 100, rows: .max)
}

/// Low-level access to the process's terminal: detection, raw mode, size and output.
///
/// Raw mode is entered once with ``enterFullScreen()`` and undone by ``restore()``, which
/// is idempotent and safe to call from a signal-handling queue.
public enum Terminal {
  /// Whether both standard input and standard output are terminals.
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// The current size of the terminal on standard output, or 80×24 when unknown.
  public static func size() -> TerminalSize {
    var size = winsize()
    if unsafe ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 {
      return TerminalSize(columns: Int(size.ws_col), rows: Int(size.ws_row))
    }
    return TerminalSize(columns: 80, rows: 24)
  }

  /// Writes `text` to standard output at once (unbuffered), retrying partial writes.
  public static func write(_ text: String) {
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = unsafe bytes.withUnsafeMutableBytes { buffer in
        unsafe systemWrite(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        return
      }
      offset += written
    }
    bytes.removeAll()
  }

  private static let saved = SavedTerminal()

  /// Switches the terminal to raw input (no echo, no line buffering, no signal keys) and an
  /// alternate screen with a hidden cursor.
  /// - Throws: ``TerminalError`` when standard input is not a terminal.
  public static func enterFullScreen() throws {
    var original = termios()
    guard unsafe tcgetattr(STDIN_FILENO, &original) == 0 else {
      throw TerminalError("Standard input is not a terminal (tcgetattr failed, errno \(errno)).")
    }
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    unsafe withUnsafeMutableBytes(of: &raw.c_cc) { controls in
      unsafe controls[Int(VMIN)] = 1
      unsafe controls[Int(VTIME)] = 0
    }
    saved.store(original)
    guard unsafe tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
      saved.take()
      throw TerminalError("Could not switch the terminal to raw mode (errno \(errno)).")
    }
    write(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.clearScreen)
  }

  /// Leaves the alternate screen, shows the cursor and restores the original terminal
  /// settings. Does nothing when ``enterFullScreen()`` was not called or was already undone.
  public static func restore() {
    guard var original = saved.take() else { return }
    write(ANSI.showCursor + ANSI.leaveAlternateScreen)
    unsafe tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
  }

  /// Draws `lines` from the top-left corner over the previous frame, clearing what is left
  /// of each line and below the last one. Lines are cut to `size.columns` and to
  /// `size.rows` lines.
  public static func draw(_ lines: [String], size: TerminalSize) {
    var frame = ANSI.home
    for (index, line) in lines.prefix(size.rows).enumerated() {
      if index > 0 { frame += "\r\n" }
      frame += TextStyle.truncate(line, toWidth: size.columns) + ANSI.clearToEndOfLine
    }
    frame += ANSI.clearToEndOfScreen
    write(frame)
  }
}

/// ANSI / VT100 control sequences used by the terminal layer.
public enum ANSI {
  public static let home = "\u{1B}[H"
  public static let clearScreen = "\u{1B}[2J"
  public static let clearToEndOfLine = "\u{1B}[K"
  public static let clearToEndOfScreen = "\u{1B}[J"
  public static let hideCursor = "\u{1B}[?25l"
  public static let showCursor = "\u{1B}[?25h"
  public static let enterAlternateScreen = "\u{1B}[?1049h"
  public static let leaveAlternateScreen = "\u{1B}[?1049l"
}

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  unsafe write(descriptor, bytes, count)
}

/// A terminal operation that failed, described for the user.
public struct TerminalError: Error, CustomStringConvertible {
  public let description: String

  public init(_ description: String) {
    self.description = description
  }
}

/// The terminal settings to restore, shared between the main queue and signal handlers.
private final class SavedTerminal: @unchecked Sendable {
  // Safety: `settings` is only touched while holding `lock`.
  private let lock = NSLock()
  private var settings: termios?

  func store(_ value: termios) {
    lock.lock()
    settings = value
    lock.unlock()
  }

  @discardableResult
  func take() -> termios? {
    lock.lock()
    defer { lock.unlock() }
    let value = settings
    settings = nil
    return value
  }
}
