/// Builds JSON text by appending, without an intermediate tree: the server writes thousands
/// of events and state trees with it.
struct JSONWriter {
  private(set) var text = ""
  private var needsComma = [false]

  init() {}

  private mutating func separate() {
    if needsComma[needsComma.count - 1] { text += "," }
    needsComma[needsComma.count - 1] = true
  }

  mutating func object(_ body: (inout JSONWriter) -> Void) {
    container(opening: "{", body, closing: "}")
  }

  mutating func array(_ body: (inout JSONWriter) -> Void) {
    container(opening: "[", body, closing: "]")
  }

  /// An object or an array: its members or elements, written by `body`, between brackets.
  private mutating func container(
    opening: String, _ body: (inout JSONWriter) -> Void, closing: String
  ) {
    separate()
    text += opening
    needsComma.append(false)
    body(&self)
    needsComma.removeLast()
    text += closing
  }

  mutating func key(_ name: String) {
    separate()
    Self.appendString(name, to: &text)
    text += ":"
    // The value that follows is not preceded by a comma.
    needsComma[needsComma.count - 1] = false
  }

  mutating func field(_ name: String, _ value: String?) {
    key(name)
    self.value(value)
    needsComma[needsComma.count - 1] = true
  }

  mutating func field(_ name: String, _ value: Int) {
    key(name)
    self.value(value)
    needsComma[needsComma.count - 1] = true
  }

  mutating func field(_ name: String, _ value: UInt64) {
    key(name)
    separate()
    text += String(value)
  }

  mutating func field(_ name: String, _ value: Double) {
    key(name)
    separate()
    text += value.isFinite ? String(value) : "null"
  }

  mutating func field(_ name: String, _ value: Bool) {
    key(name)
    separate()
    text += value ? "true" : "false"
  }

  /// A field whose value is already JSON text.
  mutating func field(_ name: String, raw: String) {
    key(name)
    separate()
    text += raw
  }

  mutating func value(_ value: String?) {
    separate()
    if let value { Self.appendString(value, to: &text) } else { text += "null" }
  }

  mutating func value(_ value: Int) {
    separate()
    text += String(value)
  }

  /// Appends `value` as a JSON string literal.
  static func appendString(_ value: String, to text: inout String) {
    text += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "<": text += "\\u003c"  // never `</script>` in a page
      case "\u{2028}": text += "\\u2028"
      case "\u{2029}": text += "\\u2029"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          text.unicodeScalars.append(scalar)
        }
      }
    }
    text += "\""
  }

  static func quoted(_ value: String) -> String {
    var text = ""
    appendString(value, to: &text)
    return text
  }
}
