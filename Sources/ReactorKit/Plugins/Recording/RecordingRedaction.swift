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

/// A JSON document as a tree, numbers kept exact where they are integers (unsigned ones above
/// `Int64.max` too, which ``StateMigration/JSON`` reads as a number).
enum JSONValue: JSONTree, Codable, Equatable {
  case null
  case bool(Bool)
  case integer(Int64)
  case unsigned(UInt64)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  init(from decoder: any Decoder) throws {
    self = try Self.decodeTree(from: decoder)
  }

  /// A migration's JSON value, to encode it.
  init(_ json: StateMigration.JSON) {
    switch json {
    case .null: self = .null
    case .bool(let value): self = .bool(value)
    case .integer(let value): self = .integer(value)
    case .number(let value): self = .number(value)
    case .string(let value): self = .string(value)
    case .array(let elements): self = .array(elements.map(JSONValue.init))
    case .object(let members): self = .object(members.mapValues(JSONValue.init))
    }
  }

  static func exactUnsigned(_ value: UInt64) -> Self? { .unsigned(value) }

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
