/// A single-line text field driven by keys: insert, delete, move, clear.
public struct LineEditor: Equatable, Sendable {
  private var characters: [Character]
  /// The insertion point, in characters from the start.
  public private(set) var cursor: Int

  /// Creates an editor holding `text`, with the cursor at its end.
  public init(text: String = "") {
    characters = Array(text)
    cursor = characters.count
  }

  /// The text being edited.
  public var text: String { String(characters) }

  /// Applies an editing key.
  ///
  /// Handles printable characters, Backspace, Delete, Left, Right, Home/End (and Ctrl-A /
  /// Ctrl-E), Ctrl-U (clear the line) and Ctrl-W (delete the word before the cursor).
  /// - Returns: Whether the key was an editing key; other keys are left to the caller.
  @discardableResult
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      characters.insert(character, at: cursor)
      cursor += 1
    case .backspace:
      if cursor > 0 {
        cursor -= 1
        characters.remove(at: cursor)
      }
    case .delete:
      if cursor < characters.count { characters.remove(at: cursor) }
    case .left:
      cursor = max(0, cursor - 1)
    case .right:
      cursor = min(characters.count, cursor + 1)
    case .home, .control("a"):
      cursor = 0
    case .end, .control("e"):
      cursor = characters.count
    case .control("u"):
      characters.removeAll()
      cursor = 0
    case .control("w"):
      var start = cursor
      while start > 0, characters[start - 1] == " " { start -= 1 }
      while start > 0, characters[start - 1] != " " { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
    default:
      return false
    }
    return true
  }

  /// The text with the cursor drawn as an inverse cell when `style` is enabled.
  public func rendered(_ style: TextStyle) -> String {
    guard style.isEnabled else { return text }
    let before = String(characters[..<cursor])
    let under = cursor < characters.count ? String(characters[cursor]) : " "
    let after = cursor < characters.count ? String(characters[(cursor + 1)...]) : ""
    return before + style.inverse(under) + after
  }
}
