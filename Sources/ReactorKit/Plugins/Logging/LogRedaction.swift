/// How a ``LoggingPlugin`` keeps secrets out of its log, for every source.
///
/// Values are rendered by reflection, never by their own `description` (which might print a
/// secret). A struct field, tuple element, enum case or string dictionary key whose name
/// matches ``fieldNames`` hides its value, wherever it appears: in actions, mutations and
/// states, inside `AnyHashable`s too. A value rendered whole (a string, a number, data, a
/// date, a URL) renders as ``replacement``; a container (a struct, a collection, an enum
/// payload) keeps its shape and has every value inside it that could carry a secret
/// replaced (strings, numbers, data…; only `Bool`s, `nil` and enum cases without payload stay
/// visible), so a feature state named `session` shows which fields it has and whether
/// `isLoggingIn`, while `session.token`, and the strings of a `tokens` array, are
/// `<redacted>`. Set ``redactsWholeValues`` to replace secret-named containers whole. A
/// `URL` renders without its user
/// name and password, and with the values of secret-named query items (and fragment
/// parameters) replaced. ``redactValue`` runs first on every action, mutation and state, for
/// anything names can't catch. For specific parts of one store's or reactor's state, pass
/// ``Redaction`` values when attaching.
///
/// ## How names match
///
/// Names are compared by words, case-insensitively: a field name is split at `camelCase`
/// humps, `snake_case` underscores, hyphens and digits, and it is secret when its words
/// contain the words of a secret name, in order, a plural counting as the singular. With the
/// default names, `password`, `passwordHash`, `api_key`, `APIKey`, `secretKey`, `private_key`,
/// `tokens`, `refresh_token`, `userPIN`, `otpCode`, `sessionID` and `setToken` (an enum case)
/// are secret; `spinner`, `opinion`, `pinned`, `tokenizer`, `keyboard` and `possession` are
/// not, because no word of theirs is a secret name's word.
///
/// A match followed by one of the ``nonSecretQualifiers`` names a fact about a secret, not
/// the secret: `sessionCount`, `tokenExpiry`, `passwordLength` and `isPasswordVisible` are
/// logged. A name written as one lowercase word (`usertoken`) has one word and does not match
/// `token`; add it to ``fieldNames`` as it is.
///
/// ```swift
/// var redaction = LogRedaction.default          // password, token, secret, pin, …
/// redaction.fieldNames.insert("iban")
/// let logger = LoggingPlugin(redaction: redaction)
/// ```
///
/// > Important: Only the log is redacted. ``ActionRecorder`` and ``StatePersistence`` write
/// > actions and state as they are (to owner-only files), since replaying and restoring need
/// > the real values; see ``ActionRecording/jsonLines(registry:limits:redaction:)`` for a copy
/// > of a recording to share.
public struct LogRedaction: Sendable {
  /// Names of secret fields, matched by words (see "How names match").
  public var fieldNames: Set<String> {
    didSet { patterns = Self.patterns(fieldNames) }
  }
  /// What a secret renders as.
  public var replacement: String
  /// Called with every action, mutation and state before it is rendered; returns the value to
  /// render in its place. `nil` renders values as they are.
  public var redactValue: (@Sendable (Any) -> Any)?
  /// Words that, right after a secret name's words, make a field a fact about the secret
  /// rather than the secret (`sessionCount`, `tokenExpiry`): `count`, `length`, `expiry`,
  /// `visible`, … by default.
  public var nonSecretQualifiers: Set<String> {
    didSet { qualifiers = Set(nonSecretQualifiers.map { Array($0.lowercased().utf8) }) }
  }
  /// Whether a secret-named container (`session: SessionState`) renders as ``replacement``
  /// as a whole, as earlier versions did, instead of keeping its shape with its values
  /// replaced; `false` by default. Values rendered whole are replaced either way.
  public var redactsWholeValues = false

  private var patterns: [[[UInt8]]]
  private var qualifiers: Set<[UInt8]>

  /// The default ``nonSecretQualifiers``.
  public static let defaultNonSecretQualifiers: Set<String> = [
    "count", "length", "size", "expiry", "expires", "expiration", "expired", "date", "time",
    "timestamp", "at", "age", "ttl", "timeout", "duration", "type", "kind", "enabled",
    "required", "visible", "visibility", "hidden", "policy", "strength", "status", "start",
    "started", "end", "ended", "valid", "validity", "format", "version",
  ]

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
    self.nonSecretQualifiers = Self.defaultNonSecretQualifiers
    patterns = Self.patterns(fieldNames)
    qualifiers = Set(Self.defaultNonSecretQualifiers.map { Array($0.utf8) })
  }

  /// Redacts fields whose names contain the words `password`, `passcode`, `passwd`,
  /// `passphrase`, `secret`, `token`, `api key`, `private key`, `access key`,
  /// `authorization`, `cookie`, `credential`, `session`, `pin`, `otp`, `cvv` or `ssn`.
  public static let `default` = LogRedaction(fieldNames: [
    "password", "passcode", "passwd", "passphrase", "secret", "token", "apiKey", "privateKey",
    "accessKey", "authorization", "cookie", "credential", "session", "pin", "otp", "cvv", "ssn",
  ])

  /// Redacts nothing by name.
  public static let none = LogRedaction(fieldNames: [])

  /// The app's one redaction setting, shared by every plugin that shows or exports values:
  /// ``LoggingPlugin`` and the inspector use it unless given another, and a recording redacted
  /// to share (`ActionRecorder(…, redaction: .shared)`, ``ActionRecording/write(to:registry:limits:redaction:)``)
  /// takes it explicitly (a recording is unredacted by default, since replaying needs the real
  /// values). ``LogRedaction/default`` until the app changes it; change it once, at start,
  /// before creating the plugins (each reads it when it is created):
  ///
  /// ```swift
  /// LogRedaction.shared.fieldNames.insert("iban")      // hidden in the log, inspector, copies
  /// LogRedaction.shared.fieldNames.remove("session")   // shown everywhere
  /// ```
  ///
  /// Reading and setting it is thread-safe.
  public static var shared: LogRedaction {
    get { sharedSetting.withLock { $0 } }
    set { sharedSetting.withLock { $0 = newValue } }
  }

  private static let sharedSetting = SharedRedactionSetting()

  /// Whether a field of this name is secret (see "How names match").
  public func isRedacted(_ name: String) -> Bool {
    guard !patterns.isEmpty else { return false }
    let words = Self.words(of: name)
    guard !words.isEmpty else { return false }
    for pattern in patterns where pattern.count <= words.count {
      for start in 0...(words.count - pattern.count) {
        var matches = true
        for offset in 0..<pattern.count
        where !Self.sameWord(words[start + offset], pattern[offset]) {
          matches = false
          break
        }
        guard matches else { continue }
        let next = start + pattern.count
        if next < words.count, qualifiers.contains(words[next]) { continue }
        return true
      }
    }
    return false
  }

  /// The lowercased words of `name`: split at non-alphanumerics, at a lowercase letter or
  /// digit followed by an uppercase one, at the last capital of a run followed by a lowercase
  /// letter (`APIKey`: `api`, `key`), and between letters and digits.
  static func words(of name: String) -> [[UInt8]] {
    enum Class { case upper, lower, digit, other }
    func classify(_ byte: UInt8) -> Class {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): return .upper
      case UInt8(ascii: "a")...UInt8(ascii: "z"), 0x80...: return .lower
      case UInt8(ascii: "0")...UInt8(ascii: "9"): return .digit
      default: return .other
      }
    }
    let bytes = Array(name.utf8)
    var words: [[UInt8]] = []
    var current: [UInt8] = []
    for index in bytes.indices {
      let byte = bytes[index]
      let kind = classify(byte)
      if kind == .other {
        if !current.isEmpty { words.append(current) }
        current = []
        continue
      }
      if !current.isEmpty {
        let previous = classify(bytes[index - 1])
        let nextIsLower = index + 1 < bytes.count && classify(bytes[index + 1]) == .lower
        let split =
          (kind == .upper && (previous == .lower || previous == .digit))
          || (kind == .upper && previous == .upper && nextIsLower)
          || (kind == .digit) != (previous == .digit)
        if split {
          words.append(current)
          current = []
        }
      }
      current.append(kind == .upper ? byte + 32 : byte)
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// Whether two lowercased words are the same, one possibly the other's plural.
  private static func sameWord(_ word: [UInt8], _ name: [UInt8]) -> Bool {
    if word == name { return true }
    let s = UInt8(ascii: "s")
    let e = UInt8(ascii: "e")
    func isPlural(_ long: [UInt8], of short: [UInt8]) -> Bool {
      guard long.count > short.count, long.starts(with: short), long.last == s else {
        return false
      }
      return long.count == short.count + 1
        || (long.count == short.count + 2 && long[short.count] == e)
    }
    return isPlural(word, of: name) || isPlural(name, of: word)
  }

  private static func patterns(_ names: Set<String>) -> [[[UInt8]]] {
    names.map { words(of: $0) }.filter { !$0.isEmpty }.sorted { $0.count < $1.count }
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

/// The storage of ``LogRedaction/shared``.
private final class SharedRedactionSetting: @unchecked Sendable {
  // Safety: `value` is guarded by `lock`.
  private let lock = Lock()
  private var value = LogRedaction.default

  func withLock<T>(_ body: (inout LogRedaction) -> T) -> T {
    lock.withLock { body(&value) }
  }
}
