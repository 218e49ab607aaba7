/// A key press read from a terminal in raw mode.
public enum Key: Hashable, Sendable {
  /// A printable character (including space).
  case character(Character)
  case up, down, left, right
  case home, end, pageUp, pageDown
  case enter, tab, backspace, delete, escape
  /// A control chord, named by its lowercase letter: Ctrl-C is `.control("c")`.
  case control(Character)
}

/// Turns the bytes a terminal sends in raw mode into ``Key`` values.
///
/// Understands UTF-8 text, control chords and the common CSI / SS3 escape sequences
/// (arrows, Home, End, Page Up/Down, Delete). A sequence or a UTF-8 character split across
/// two reads is completed by the next call; a lone ESC at the end of a read is the Escape key
/// (terminals send a whole sequence in one write). Unknown sequences are dropped.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// Decodes `bytes` (one read from the terminal) into keys.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    let input = pending + bytes
    pending = []
    var keys: [Key] = []
    var index = 0
    while index < input.count {
      let byte = input[index]
      switch byte {
      case 0x1B:
        guard index + 1 < input.count else {
          keys.append(.escape)
          index += 1
          continue
        }
        let introducer = input[index + 1]
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
          keys.append(.escape)
          index += 1
          continue
        }
        var end = index + 2
        while end < input.count, (0x30...0x3F).contains(input[end]) { end += 1 }
        guard end < input.count else {
          pending = Array(input[index...])
          return keys
        }
        let parameters = String(decoding: input[(index + 2)..<end], as: UTF8.self)
        if let key = Self.key(final: input[end], parameters: parameters) { keys.append(key) }
        index = end + 1
      case 0x0D, 0x0A:
        keys.append(.enter)
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x7F, 0x08:
        keys.append(.backspace)
        index += 1
      case 0x01...0x1A:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        index += 1
      case 0x00..<0x20:
        index += 1
      default:
        let length = Self.utf8Length(leadByte: byte)
        guard index + length <= input.count else {
          pending = Array(input[index...])
          return keys
        }
        let text = String(decoding: input[index..<(index + length)], as: UTF8.self)
        if let character = text.first { keys.append(.character(character)) }
        index += length
      }
    }
    return keys
  }

  private static func utf8Length(leadByte: UInt8) -> Int {
    switch leadByte {
    case 0xF0...0xF7: 4
    case 0xE0...0xEF: 3
    case 0xC0...0xDF: 2
    default: 1
    }
  }

  private static func key(final: UInt8, parameters: String) -> Key? {
    switch final {
    case UInt8(ascii: "A"): .up
    case UInt8(ascii: "B"): .down
    case UInt8(ascii: "C"): .right
    case UInt8(ascii: "D"): .left
    case UInt8(ascii: "H"): .home
    case UInt8(ascii: "F"): .end
    case UInt8(ascii: "~"):
      switch parameters.split(separator: ";").first {
      case "1", "7": .home
      case "4", "8": .end
      case "3": .delete
      case "5": .pageUp
      case "6": .pageDown
      default: nil
      }
    default: nil
    }
  }
}
