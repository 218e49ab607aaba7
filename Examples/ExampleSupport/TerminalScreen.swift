/// What a terminal example draws and how it reacts to input.
///
/// A ``TerminalRunner`` calls every requirement on the main thread, and a screen calls
/// ``onChange`` on the main thread.
public protocol TerminalScreen: AnyObject {
  /// Set by the runner: the screen calls it whenever its content changed for a reason other
  /// than input it was just given, such as a reactor's delayed state.
  var onChange: (() -> Void)? { get set }

  /// Whether background work started by a command has finished; scripted mode waits for it
  /// before printing the screen.
  var isIdle: Bool { get }

  /// The lines to draw for `context`.
  func render(_ context: RenderContext) -> [String]

  /// Runs one scripted command.
  func perform(_ command: ScriptCommand) -> ScreenOutcome

  /// Handles one key in interactive mode.
  func handle(_ key: Key) -> ScreenOutcome
}

/// Whether the program goes on after a command or a key.
public enum ScreenOutcome: Equatable, Sendable {
  case `continue`
  case quit
}

/// How and where a screen is drawn.
public struct RenderContext: Sendable {
  /// Colours on a terminal, plain text in scripted mode.
  public var style: TextStyle
  /// The space available; lines longer than `size.columns` are cut by the runner.
  public var size: TerminalSize
  /// Whether a person is at the keyboard (show key hints) or a script is running.
  public var isInteractive: Bool

  public init(style: TextStyle, size: TerminalSize, isInteractive: Bool) {
    self.style = style
    self.size = size
    self.isInteractive = isInteractive
  }

  /// Scripted mode: plain text, 100 columns, no height limit.
  public static let script = RenderContext(
    style: .plain, size: .unbounded, isInteractive: false)

  /// Interactive mode on a terminal of `size`.
  public static func terminal(_ size: TerminalSize) -> RenderContext {
    RenderContext(style: .ansi, size: size, isInteractive: true)
  }
}
