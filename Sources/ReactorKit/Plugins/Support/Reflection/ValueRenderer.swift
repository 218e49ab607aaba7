#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Renders values as Swift-like text through reflection, for logs: deterministic (dictionary
/// and set elements sorted), bounded in depth and length, and blind to secrets.
///
/// A field, enum case or string dictionary key whose name is redacted hides its value: a
/// value rendered whole (a string, a number, data, a date…) renders as the redaction text,
/// and a container (a struct, a collection, an enum payload) keeps its shape with every value
/// inside it that could carry a secret redacted, so `session: Session(user: User(name:
/// <redacted>), isLoggingIn: false)`: only `Bool`s, `nil` and enum cases without payload stay
/// visible inside. With ``redactsWholeValues`` the whole value is replaced instead. A
/// `@Pulse` property renders as its property (`errorMessage: "…"`), not as its storage.
///
/// Structs and classes render as `Type(field: value, …)`, enums as `Type.case(payload)` at
/// the top level and `.case(payload)` inside other values, strings quoted. Types' own
/// `description`s are not used (they may print secrets), except for a few Foundation value
/// types (`Date`, `URL`, `UUID`, `Decimal`, `Data`) and values reflection shows no children
/// of.
package struct ValueRenderer {
  /// Whether a field, enum case or dictionary key of this name is secret.
  package var isRedacted: (String) -> Bool
  /// What stands in for a secret value.
  package var redactedText: String
  /// How deep to descend; deeper values render as `…`.
  package var maximumDepth: Int
  /// The longest rendering, in characters, before it is cut off with `…`.
  package var maximumLength: Int
  /// Whether a secret-named container renders as the redaction text as a whole (`session:
  /// <redacted>`) rather than with its values redacted one by one.
  package var redactsWholeValues: Bool

  package init(
    isRedacted: @escaping (String) -> Bool = { _ in false },
    redactedText: String = "<redacted>", maximumDepth: Int = 12, maximumLength: Int = 4_096,
    redactsWholeValues: Bool = false
  ) {
    self.isRedacted = isRedacted
    self.redactedText = redactedText
    self.maximumDepth = maximumDepth
    self.maximumLength = maximumLength
    self.redactsWholeValues = redactsWholeValues
  }

  /// Renders `value`; an enum case is named with its type (`Filter.done`).
  package func render(_ value: Any) -> String {
    var output = BoundedText(limit: maximumLength)
    write(value, into: &output, depth: 0, isTopLevel: true, secret: false)
    return output.finish()
  }

  /// Renders `value` as a part of a larger value: an enum case without its type (`.done`).
  package func renderPart(_ value: Any) -> String {
    render(child: value, depth: 0, secret: false)
  }

  /// Renders `value` as a part of a secret-named value: its shape, with every value that
  /// could carry a secret redacted (only `Bool`s, `nil` and enum cases without payload show).
  package func renderSecretPart(_ value: Any) -> String {
    render(child: value, depth: 0, secret: true)
  }

  /// Whether a secret-named `value` is redacted as a whole: it renders whole (a string, a
  /// number, a date, data…), or ``redactsWholeValues`` is set. Otherwise it is a container
  /// rendered with ``renderSecretPart(_:)``.
  package func redactsWhole(_ value: Any) -> Bool {
    redactsWholeValues || !Self.isContainer(value)
  }

  /// Whether `value` has parts that reflection shows (a struct, class, tuple, collection,
  /// dictionary, set, or enum case with a payload), looking through optionals; `false` for
  /// the values rendered whole.
  package static func isContainer(_ value: Any) -> Bool {
    if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
      return isContainer(hashable.base)
    }
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { isContainer($0.value) } ?? false
    case .enum, .struct, .class, .tuple, .collection, .dictionary, .set:
      guard !isRenderedWhole(value) else { return false }
      return !mirror.children.isEmpty || mirror.displayStyle == .collection
        || mirror.displayStyle == .dictionary || mirror.displayStyle == .set
    default:
      return !isRenderedWhole(value) && !mirror.children.isEmpty
    }
  }

  private static func isRenderedWhole(_ value: Any) -> Bool {
    switch value {
    case is String, is Substring, is Character, is Bool, is Int, is Int8, is Int16, is Int32,
      is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64, is Double, is Float, is Date,
      is UUID, is Decimal, is Data, is URL:
      return true
    default:
      return false
    }
  }

  /// The label and value a field reflects as: a `@Pulse` property's storage (`_name`, a
  /// `Pulse`) as the property (`name`, its value); tuple positions (`.0`) as `nil`.
  package static func field(_ label: String?, _ value: Any) -> (label: String?, value: Any) {
    guard let label else { return (nil, value) }
    if label.hasPrefix(".") { return (nil, value) }
    if label.hasPrefix("_"), let pulse = value as? any ReflectedPulse {
      return (String(label.dropFirst()), pulse.reflectedValue)
    }
    return (label, value)
  }

  private func write(
    _ value: Any, into output: inout BoundedText, depth: Int, isTopLevel: Bool, secret: Bool
  ) {
    guard !output.isFull else { return }
    // An `AnyHashable` has no display style: its description would print the wrapped value
    // whole, secret fields included. Render what it wraps instead.
    if type(of: value) == AnyHashable.self, let hashable = value as? AnyHashable {
      write(hashable.base, into: &output, depth: depth, isTopLevel: isTopLevel, secret: secret)
      return
    }
    let mirror = Mirror(reflecting: value)
    // Casts see through optionals (`Optional(3) as Any is Int`), so check for one first.
    if mirror.displayStyle != .optional, let text = leafText(value) {
      output.append(secret && !(value is Bool) ? redactedText : text)
      return
    }
    guard depth < maximumDepth else {
      output.append("…")
      return
    }
    switch mirror.displayStyle {
    case .optional:
      if let wrapped = mirror.children.first?.value {
        write(wrapped, into: &output, depth: depth + 1, isTopLevel: isTopLevel, secret: secret)
      } else {
        output.append("nil")
      }
    case .enum:
      if isTopLevel { output.append(Self.typeName(of: value)) }
      guard let payload = mirror.children.first else {
        output.append(".")
        output.append(String(describing: value))
        return
      }
      let name = payload.label ?? String(describing: value)
      output.append(".")
      output.append(name)
      let payloadSecret = secret || isRedacted(name)
      if payloadSecret && redactsWholeValues {
        output.append("(")
        output.append(redactedText)
        output.append(")")
      } else if Mirror(reflecting: payload.value).displayStyle == .tuple {
        write(
          payload.value, into: &output, depth: depth + 1, isTopLevel: false,
          secret: payloadSecret)
      } else {
        output.append("(")
        write(
          payload.value, into: &output, depth: depth + 1, isTopLevel: false,
          secret: payloadSecret)
        output.append(")")
      }
    case .struct, .class:
      output.append(Self.typeName(of: value))
      writeFields(mirror, into: &output, depth: depth, secret: secret)
    case .tuple:
      writeFields(mirror, into: &output, depth: depth, secret: secret)
    case .collection:
      output.append("[")
      for (index, child) in mirror.children.enumerated() {
        if index > 0 { output.append(", ") }
        write(child.value, into: &output, depth: depth + 1, isTopLevel: false, secret: secret)
        if output.isFull { break }
      }
      output.append("]")
    case .set:
      let elements = mirror.children.map {
        render(child: $0.value, depth: depth + 1, secret: secret)
      }.sorted()
      output.append("[")
      output.append(elements.joined(separator: ", "))
      output.append("]")
    case .dictionary:
      writeDictionary(mirror, into: &output, depth: depth, secret: secret)
    default:
      if mirror.children.isEmpty {
        output.append(secret ? redactedText : String(describing: value))
      } else {
        // A custom mirror without a display style: its children, not its description.
        output.append(Self.typeName(of: value))
        writeFields(mirror, into: &output, depth: depth, secret: secret)
      }
    }
  }

  private func writeFields(
    _ mirror: Mirror, into output: inout BoundedText, depth: Int, secret: Bool
  ) {
    output.append("(")
    for (index, child) in mirror.children.enumerated() {
      if index > 0 { output.append(", ") }
      let (label, value) = Self.field(child.label, child.value)
      var childSecret = secret
      if let label {
        output.append(label)
        output.append(": ")
        if isRedacted(label) {
          if redactsWhole(value) {
            output.append(redactedText)
            continue
          }
          childSecret = true
        }
      }
      write(value, into: &output, depth: depth + 1, isTopLevel: false, secret: childSecret)
      if output.isFull { break }
    }
    output.append(")")
  }

  private func writeDictionary(
    _ mirror: Mirror, into output: inout BoundedText, depth: Int, secret: Bool
  ) {
    var entries: [(key: String, value: String)] = []
    for child in mirror.children {
      let pair = Array(Mirror(reflecting: child.value).children)
      guard pair.count == 2 else { continue }
      let key = render(child: pair[0].value, depth: depth + 1, secret: secret)
      let name =
        Self.keyName(pair[0].value) ?? render(child: pair[0].value, depth: depth + 1, secret: false)
      let value: String
      if isRedacted(name) && redactsWhole(pair[1].value) {
        value = redactedText
      } else {
        value = render(
          child: pair[1].value, depth: depth + 1, secret: secret || isRedacted(name))
      }
      entries.append((key, value))
    }
    guard !entries.isEmpty else {
      output.append("[:]")
      return
    }
    output.append("[")
    output.append(
      entries.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))
    output.append("]")
  }

  private func render(child value: Any, depth: Int, secret: Bool) -> String {
    var output = BoundedText(limit: maximumLength)
    write(value, into: &output, depth: depth, isTopLevel: false, secret: secret)
    return output.finish()
  }

  /// The name a dictionary key is checked under: the string itself for `String` keys, also
  /// when wrapped in an `AnyHashable`.
  static func keyName(_ key: Any) -> String? {
    if let string = key as? String { return string }
    if let hashable = key as? AnyHashable { return hashable.base as? String }
    return nil
  }

  /// The text of values rendered as a whole rather than field by field.
  private func leafText(_ value: Any) -> String? {
    if let url = value as? URL { return redacting(url) }
    switch value {
    case let string as String: return String(reflecting: string)
    case let string as Substring: return String(reflecting: String(string))
    case let character as Character: return String(reflecting: character)
    case is Bool, is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16,
      is UInt32, is UInt64, is Double, is Float:
      return String(describing: value)
    case is Date, is UUID, is Decimal, is Data:
      return String(describing: value)
    default:
      return nil
    }
  }

  /// `url` as text without its user name and password, and with the values of secret-named
  /// query items and fragment parameters replaced by the redaction text.
  func redacting(_ url: URL) -> String {
    var text = url.absoluteString
    // The user information: between "//" and the last "@" before the path.
    if let schemeEnd = text.range(of: "://") {
      let authorityEnd =
        text[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        ?? text.endIndex
      if let at = text[schemeEnd.upperBound..<authorityEnd].lastIndex(of: "@") {
        text.replaceSubrange(schemeEnd.upperBound...at, with: redactedText + "@")
      }
    }
    func redactParameters(_ part: Substring) -> String {
      part.split(separator: "&", omittingEmptySubsequences: false).map { item in
        guard let equals = item.firstIndex(of: "=") else { return String(item) }
        let name = String(item[..<equals])
        let decoded = name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name
        return isRedacted(decoded) ? name + "=" + redactedText : String(item)
      }.joined(separator: "&")
    }
    let fragmentStart = text.firstIndex(of: "#")
    if let fragmentStart {
      let fragment = text[text.index(after: fragmentStart)...]
      text.replaceSubrange(
        text.index(after: fragmentStart)..., with: redactParameters(fragment))
    }
    let queryEnd = text.firstIndex(of: "#") ?? text.endIndex
    if let queryStart = text[..<queryEnd].firstIndex(of: "?") {
      let query = text[text.index(after: queryStart)..<queryEnd]
      text.replaceSubrange(
        text.index(after: queryStart)..<queryEnd, with: redactParameters(query))
    }
    return text
  }

  /// The type's name qualified by its enclosing types but not by modules:
  /// `TodoListReactor.Action`, `Box<Int>`. Private and local types lose the compiler's
  /// `(unknown context at $…)` marker, which changes from run to run.
  static func typeName(of value: Any) -> String {
    var name = String(reflecting: type(of: value))
    while let start = name.range(of: "(unknown context at "),
      let end = name[start.upperBound...].range(of: ").")
    {
      name.removeSubrange(start.lowerBound..<end.upperBound)
    }
    // Every qualified name starts with its module: drop the first component of each.
    var result = ""
    var token = ""
    func flush() {
      if let dot = token.firstIndex(of: ".") {
        result += token[token.index(after: dot)...]
      } else {
        result += token
      }
      token = ""
    }
    for character in name {
      if character.isLetter || character.isNumber || character == "_" || character == "." {
        token.append(character)
      } else {
        flush()
        result.append(character)
      }
    }
    flush()
    return result
  }
}

/// Text that stops growing at a limit and then ends with `…`.
private struct BoundedText {
  let limit: Int
  private(set) var text = ""
  private var count = 0
  private(set) var isFull = false

  init(limit: Int) {
    self.limit = limit
  }

  mutating func append(_ piece: String) {
    guard !isFull else { return }
    let length = piece.count
    if count + length <= limit {
      text += piece
      count += length
    } else {
      text += piece.prefix(max(0, limit - count))
      isFull = true
    }
  }

  func finish() -> String {
    isFull ? text + "…" : text
  }
}

/// A `@Pulse` property's storage, seen through reflection: renderers and diffs show the
/// property's value instead of the wrapper's fields.
package protocol ReflectedPulse {
  /// The pulse's value.
  var reflectedValue: Any { get }
  /// How many times the value was set.
  var reflectedUpdateCount: UInt { get }
}

extension Pulse: ReflectedPulse {
  package var reflectedValue: Any { value }
  package var reflectedUpdateCount: UInt { valueUpdatedCount }
}
