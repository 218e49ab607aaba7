#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Redaction of recording lines for sharing: the JSON of each action is decoded into a plain
/// JSON tree, every member whose key is a secret name (``LogRedaction/isRedacted(_:)``) gets
/// the replacement string as its value (or, for an object or array, as each string and number
/// inside it), and the tree is encoded again with sorted keys.
enum RecordingRedaction {
  /// `line` (one JSON object, without its newline) with the secret members of its `member`
  /// (the `action` of an action line, the `startState` of a header) replaced.
  static func redact(_ line: Data, with redaction: LogRedaction, member: String = "action")
    throws -> Data
  {
    let encoder = ActionRecording.lineEncoder()
    guard case .object(var members) = try JSONDecoder().decode(JSONValue.self, from: line),
      let value = members[member]
    else { return line }
    members[member] = redact(value, with: redaction)
    return try encoder.encode(JSONValue.object(members))
  }

  /// `value` with its secrets replaced: the value of a secret key as a whole when it is a
  /// string or a number (or ``LogRedaction/redactsWholeValues`` is set), and otherwise every
  /// string and number inside it (`true`, `false` and `null` stay).
  private static func redact(
    _ value: JSONValue, with redaction: LogRedaction, secret: Bool = false
  ) -> JSONValue {
    switch value {
    case .object(let members):
      var result: [String: JSONValue] = [:]
      for (key, member) in members {
        let isSecret = redaction.isRedacted(key)
        if isSecret && (redaction.redactsWholeValues || !member.isContainer) {
          result[key] = .string(redaction.replacement)
        } else {
          result[key] = redact(member, with: redaction, secret: secret || isSecret)
        }
      }
      return .object(result)
    case .array(let elements):
      return .array(elements.map { redact($0, with: redaction, secret: secret) })
    case .string, .integer, .unsigned, .number:
      return secret ? .string(redaction.replacement) : value
    case .null, .bool:
      return value
    }
  }
}

extension JSONValue {
  /// Whether the value is an object or an array.
  var isContainer: Bool {
    switch self {
    case .object, .array: return true
    default: return false
    }
  }
}

/// A JSON document as a tree, numbers kept exact where they are integers.
enum JSONValue: Codable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(UInt64.self) {
      self = .unsigned(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else if let value = try? container.decode([JSONValue].self) {
      self = .array(value)
    } else {
      self = .object(try container.decode([String: JSONValue].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .integer(let value): try container.encode(value)
    case .unsigned(let value): try container.encode(value)
    case .number(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
