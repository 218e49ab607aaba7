/// How a ``LoggingPlugin`` keeps secrets out of its log, for every source.
///
/// Values are rendered by reflection, never by their own `description` (which might print a
/// secret). A struct field, tuple element, enum case or string dictionary key whose name
/// matches ``fieldNames`` renders as ``replacement``, wherever it appears: in actions,
/// mutations and states. ``redactValue`` runs first on every action, mutation and state, for
/// anything names can't catch. For specific parts of one store's or reactor's state, pass
/// ``Redaction`` values when attaching.
///
/// ```swift
/// var redaction = LogRedaction.default          // password, token, secret, …
/// redaction.fieldNames.insert("pin")
/// let logger = LoggingPlugin(redaction: redaction)
/// ```
public struct LogRedaction: Sendable {
  /// Names of secret fields, compared case-insensitively with the end of each field name:
  /// `"token"` redacts `token`, `accessToken` and `refresh_token`, and the payload of an enum
  /// case named `setToken`.
  public var fieldNames: Set<String> {
    didSet { lowercasedNames = Self.lowercased(fieldNames) }
  }
  /// What a secret renders as.
  public var replacement: String
  /// Called with every action, mutation and state before it is rendered; returns the value to
  /// render in its place. `nil` renders values as they are.
  public var redactValue: (@Sendable (Any) -> Any)?

  private var lowercasedNames: [String]

  /// Creates a redaction policy.
  ///
  /// - Parameters:
  ///   - fieldNames: Names of secret fields (see ``fieldNames``).
  ///   - replacement: What a secret renders as; `<redacted>` by default.
  ///   - redactValue: A last-resort transformation of each logged value.
  public init(
    fieldNames: Set<String>, replacement: String = "<redacted>",
    redactValue: (@Sendable (Any) -> Any)? = nil
  ) {
    self.fieldNames = fieldNames
    self.replacement = replacement
    self.redactValue = redactValue
    lowercasedNames = Self.lowercased(fieldNames)
  }

  /// Redacts fields named like `password`, `passcode`, `secret`, `token`, `apiKey`,
  /// `privateKey`, `authorization`, `cookie` and `credentials`.
  public static let `default` = LogRedaction(fieldNames: [
    "password", "passcode", "secret", "token", "apiKey", "privateKey", "authorization",
    "cookie", "credentials",
  ])

  /// Redacts nothing by name.
  public static let none = LogRedaction(fieldNames: [])

  /// Whether a field of this name is secret.
  public func isRedacted(_ name: String) -> Bool {
    guard !lowercasedNames.isEmpty else { return false }
    let lowercased = name.lowercased()
    return lowercasedNames.contains { lowercased.hasSuffix($0) }
  }

  private static func lowercased(_ names: Set<String>) -> [String] {
    names.map { $0.lowercased() }.filter { !$0.isEmpty }.sorted()
  }
}

/// A redaction of one part of a state type, applied to a copy of each state before it is
/// logged: the real state is never changed.
///
/// ```swift
/// logger.middleware(redacting: [
///   .keyPath(\AppState.session.token),                 // a String: "<redacted>"
///   .keyPath(\AppState.session.pin, with: 0),           // any type: a stand-in value
///   .custom { $0.session.history.removeAll() },
/// ])
/// ```
public struct Redaction<Root> {
  let apply: (inout Root) -> Void

  /// Replaces the value at `path` with `replacement`.
  public static func keyPath<Value>(_ path: WritableKeyPath<Root, Value>, with replacement: Value)
    -> Redaction
  {
    Redaction { $0[keyPath: path] = replacement }
  }

  /// Replaces the string at `path` with `"<redacted>"`.
  public static func keyPath(_ path: WritableKeyPath<Root, String>) -> Redaction {
    Redaction { $0[keyPath: path] = "<redacted>" }
  }

  /// Replaces the string at `path`, when there is one, with `"<redacted>"`.
  public static func keyPath(_ path: WritableKeyPath<Root, String?>) -> Redaction {
    Redaction { root in
      if root[keyPath: path] != nil { root[keyPath: path] = "<redacted>" }
    }
  }

  /// Redacts with a closure that edits the copy.
  public static func custom(_ redact: @escaping (inout Root) -> Void) -> Redaction {
    Redaction(apply: redact)
  }
}

extension Array {
  /// `value` with every redaction in the array applied.
  package func redacting<Root>(_ value: Root) -> Root where Element == Redaction<Root> {
    guard !isEmpty else { return value }
    var copy = value
    for redaction in self { redaction.apply(&copy) }
    return copy
  }
}
