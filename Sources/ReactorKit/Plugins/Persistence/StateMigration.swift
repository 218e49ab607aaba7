#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One step of an app's saved state, from schema version ``fromVersion`` to the next: how a
/// ``StatePersistence`` moves a file written by an older version of the app to the current
/// `State` type.
///
/// Declare one step per version bump and pass them all to the persistence; it runs the steps
/// a file needs, in order, once, on restore:
///
/// ```swift
/// let persistence = StatePersistence<AppState>(
///   url: stateURL, schemaVersion: 3,
///   migrations: [
///     // 1 → 2: on the decoded JSON (a renamed field)
///     .json(from: 1) { state in
///       let filter = state["settings"]?["filter"]
///       state["settings"]?["listFilter"] = filter
///       state["settings"]?["filter"] = nil
///     },
///     // 2 → 3: from the old `Codable` type to the new one
///     .decoding(AppStateV2.self, from: 2) { old in AppState(upgrading: old) },
///   ])
/// ```
///
/// A step receives the state as the previous step (or the file) left it and returns it in the
/// next version's shape; the last step's result must decode as the persistence's `State`. A
/// step that throws stops the restore with ``PersistenceError/migrationFailed(path:from:to:reason:)``
/// and leaves the file untouched.
public struct StateMigration: @unchecked Sendable {
  // Safety: `run` captures only the caller's `@Sendable` closure and, for `decoding`, the
  // old and new types' metatypes, which are immutable.
  /// The schema version this step reads; it produces version `fromVersion + 1`.
  public let fromVersion: Int
  let run: (JSON) throws -> JSON

  /// A step on the decoded JSON of the state: `migrate` changes `state` in place.
  ///
  /// - Parameters:
  ///   - version: The schema version the step reads.
  ///   - migrate: Moves the state from `version` to `version + 1`; throw to refuse the file.
  public static func json(
    from version: Int, _ migrate: @escaping @Sendable (inout JSON) throws -> Void
  ) -> StateMigration {
    StateMigration(fromVersion: version) { json in
      var json = json
      try migrate(&json)
      return json
    }
  }

  /// A step from an old `Codable` type: the saved state is decoded as `old`, and `migrate`
  /// returns the next version's state, which is encoded for the next step (or decoded as the
  /// persistence's `State` after the last step).
  ///
  /// - Parameters:
  ///   - old: The state type as the app declared it at schema version `version`.
  ///   - version: The schema version the step reads.
  ///   - migrate: Makes the next version's state from the old one; throw to refuse the file.
  public static func decoding<Old: Decodable, New: Encodable>(
    _ old: Old.Type, from version: Int, _ migrate: @escaping @Sendable (Old) throws -> New
  ) -> StateMigration {
    StateMigration(fromVersion: version) { json in
      let data = try JSONEncoder().encode(json)
      let oldState: Old
      do {
        oldState = try JSONDecoder().decode(Old.self, from: data)
      } catch {
        throw MigrationDecodingError(
          description: "the state does not decode as \(Old.self): \(describeDecodingError(error))"
        )
      }
      return try JSONDecoder().decode(JSON.self, from: JSONEncoder().encode(migrate(oldState)))
    }
  }
}

/// Why ``StateMigration/decoding(_:from:_:)`` could not read the old state.
struct MigrationDecodingError: Error, CustomStringConvertible {
  var description: String
}

extension StateMigration.JSON: JSONTree {
  static func exactUnsigned(_ value: UInt64) -> Self? { nil }
}

extension StateMigration {
  /// A JSON value: the state as a migration on the decoded JSON sees it. Integers stay exact.
  ///
  /// Objects and arrays can be read and changed with subscripts (`state["settings"]?["filter"]`,
  /// `state["todos"]?[0]`); assigning `nil` to a key removes it.
  public enum JSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    public init(from decoder: any Decoder) throws {
      self = try Self.decodeTree(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
      try JSONValue(self).encode(to: encoder)
    }

    /// The member `key` of an object; `nil` for a missing key or a value that is not an
    /// object. Setting `nil` removes the key; setting on a value that is not an object does
    /// nothing.
    public subscript(key: String) -> JSON? {
      get {
        guard case .object(let members) = self else { return nil }
        return members[key]
      }
      set {
        guard case .object(var members) = self else { return }
        members[key] = newValue
        self = .object(members)
      }
    }

    /// The element at `index` of an array; `nil` out of range or for a value that is not an
    /// array. Setting replaces an element in range (`nil` removes it), and does nothing
    /// otherwise.
    public subscript(index: Int) -> JSON? {
      get {
        guard case .array(let elements) = self, elements.indices.contains(index) else {
          return nil
        }
        return elements[index]
      }
      set {
        guard case .array(var elements) = self, elements.indices.contains(index) else { return }
        if let newValue { elements[index] = newValue } else { elements.remove(at: index) }
        self = .array(elements)
      }
    }
  }
}
