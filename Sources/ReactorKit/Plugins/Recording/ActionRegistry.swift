#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The action types a recording may contain, each under a stable name: how recorded actions
/// are encoded, and the only types a recording can decode into.
///
/// Registration is explicit, so loading a recording can never instantiate a type the app did
/// not list, and names don't depend on module names or the compiler's type descriptions.
///
/// ```swift
/// var registry = ActionRegistry()
/// registry.register(TodoAction.self)                       // named "TodoAction"
/// registry.register(SessionAction.self, as: "session")
/// registry.register(HistoryAction.self)                    // to record time travel
/// ```
public struct ActionRegistry: Sendable {
  struct Entry: @unchecked Sendable {
    // Safety: immutable; the closures capture only the registered type and its name, and
    // create their own encoders' output.
    let name: String
    let type: ObjectIdentifier
    /// Encodes an action of the entry's type as a recording line (without the newline).
    let encodeLine: (any Action, JSONEncoder) throws -> Data?
    /// Decodes the action of a recording line of the entry's type.
    let decodeLine: (Data, JSONDecoder) throws -> any Action
  }

  private var byName: [String: Entry] = [:]
  private var byType: [ObjectIdentifier: Entry] = [:]

  /// Creates an empty registry.
  public init() {}

  /// Registers `type` under `name`.
  ///
  /// - Parameters:
  ///   - type: A `Codable` action type.
  ///   - name: The name recordings use; the type's name by default. Keep it stable: it is
  ///     written into recordings.
  /// - Precondition: No other type is registered under `name`, and `type` is not registered
  ///   under another name. (Registering the same type under the same name again is fine.)
  public mutating func register<A: Action & Codable>(_ type: A.Type, as name: String? = nil) {
    let name = name ?? String(describing: type)
    let identifier = ObjectIdentifier(type)
    if let existing = byName[name] {
      precondition(
        existing.type == identifier,
        "ActionRegistry: the name \"\(name)\" is already registered for another type.")
      return
    }
    precondition(
      byType[identifier] == nil,
      "ActionRegistry: \(type) is already registered as \"\(byType[identifier]?.name ?? "")\".")
    let entry = Entry(
      name: name, type: identifier,
      encodeLine: { action, encoder in
        guard let action = action as? A else { return nil }
        return try encoder.encode(RecordedLine(type: name, action: action))
      },
      decodeLine: { data, decoder in try decoder.decode(RecordedLine<A>.self, from: data).action })
    byName[name] = entry
    byType[identifier] = entry
  }

  /// The registered names, sorted.
  public var names: [String] { byName.keys.sorted() }

  /// The name `action`'s type is registered under, or `nil`.
  public func name(of action: any Action) -> String? {
    byType[ObjectIdentifier(type(of: action))]?.name
  }

  func entry(for action: any Action) -> Entry? {
    byType[ObjectIdentifier(type(of: action))]
  }

  func entry(named name: String) -> Entry? {
    byName[name]
  }
}

/// One action line of a recording: `{"action":{…},"type":"TodoAction"}`.
struct RecordedLine<A: Codable>: Codable {
  var type: String
  var action: A
}
