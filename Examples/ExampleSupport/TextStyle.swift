/// Wraps text in ANSI SGR escape codes, or returns it unchanged when disabled.
///
/// Screens render through a style so the same code draws colours on a terminal and plain
/// text in scripted mode.
public struct TextStyle: Sendable {
  /// Colours and attributes for a terminal.
  public static let ansi = TextStyle(isEnabled: true)
  /// No escape codes: scripted output and tests.
  public static let plain = TextStyle(isEnabled: false)

  /// Whether escape codes are emitted.
  public let isEnabled: Bool

  /// A foreground colour.
  public enum Color: Int, Sendable {
    case red = 31
    case green, yellow, blue, magenta, cyan
  }

  public func bold(_ text: String) -> String { sgr(1, text) }
  public func dim(_ text: String) -> String { sgr(2, text) }
  public func underline(_ text: String) -> String { sgr(4, text) }
  public func inverse(_ text: String) -> String { sgr(7, text) }
  public func color(_ color: Color, _ text: String) -> String { sgr(color.rawValue, text) }

  private func sgr(_ code: Int, _ text: String) -> String {
    isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// Cuts `line` to at most `width` visible characters, keeping escape codes intact and
  /// resetting attributes if the cut dropped a reset.
  public static func truncate(_ line: String, toWidth width: Int) -> String {
    var result = ""
    var visible = 0
    var inEscape = false
    var sawEscape = false
    for character in line {
      if inEscape {
        result.append(character)
        if character.isLetter { inEscape = false }
        continue
      }
      if character == "\u{1B}" {
        inEscape = true
        sawEscape = true
        result.append(character)
        continue
      }
      if visible == width {
        return sawEscape ? result + "\u{1B}[0m" : result
      }
      result.append(character)
      visible += 1
    }
    return result
  }
}
