/// A JSON document as a tree of enum cases, integers kept exact: ``StateMigration/JSON`` (the
/// public one, seen by migrations) and `JSONValue` (the recordings', which also keeps integers
/// above `Int64.max` exact). Their cases are the requirements, so one decoding serves both.
protocol JSONTree: Decodable {
  static var null: Self { get }
  static func bool(_ value: Bool) -> Self
  static func integer(_ value: Int64) -> Self
  static func number(_ value: Double) -> Self
  static func string(_ value: String) -> Self
  static func array(_ value: [Self]) -> Self
  static func object(_ value: [String: Self]) -> Self
  /// An integer above `Int64.max`, kept exact; `nil` where the tree reads it as a ``number(_:)``.
  static func exactUnsigned(_ value: UInt64) -> Self?
}

extension JSONTree {
  /// Decodes one JSON value: `null`, a Boolean, an integer (exact where the tree can hold it),
  /// another number, a string, an array or an object, tried in that order.
  static func decodeTree(from decoder: any Decoder) throws -> Self {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() { return .null }
    if let value = try? container.decode(Bool.self) { return .bool(value) }
    if let value = try? container.decode(Int64.self) { return .integer(value) }
    if let value = try? container.decode(UInt64.self), let exact = exactUnsigned(value) {
      return exact
    }
    if let value = try? container.decode(Double.self) { return .number(value) }
    if let value = try? container.decode(String.self) { return .string(value) }
    if let value = try? container.decode([Self].self) { return .array(value) }
    return .object(try container.decode([String: Self].self))
  }
}
