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

  /// The lines to draw, styled with `style` and fitted to `size`.
  func render(style: TextStyle, size: TerminalSize) -> [String]

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
