#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A compact record of the state an action produced: a fingerprint of the whole state and the
/// paths that changed, written per action by a ``FlightRecorder`` so that a replay can check,
/// action by action, that it reaches the same states without the recording holding them.
///
/// The fingerprint is a 64-bit FNV-1a hash over the state's structure, read by reflection:
/// field names, enum cases and rendered leaf values, in order; the elements of a `Set` and
/// the entries of a `Dictionary` are combined without regard to order, so the fingerprint is
/// the same in every process. A field whose name is secret under the recording's redaction
/// (``LogRedaction/isRedacted(_:)``) contributes only its name, so a checkpoint never carries
/// a hash of a password.
public struct StateCheckpoint: Codable, Equatable, Hashable, Sendable {
  /// The state's fingerprint, 16 hexadecimal digits.
  public var hash: String
  /// The paths (`.todos[3].isDone`) at which the state differs from the one before the
  /// action, at most ``maximumChangedPaths`` of them.
  public var changed: [String]

  /// The most changed paths a checkpoint lists.
  public static var maximumChangedPaths: Int { 20 }

  /// Creates a checkpoint.
  public init(hash: String, changed: [String]) {
    self.hash = hash
    self.changed = changed
  }

  /// The checkpoint of `state`, reached from `previous`, with the secrets of `redaction`
  /// left out of the fingerprint.
  public init<State>(of state: State, previous: State, redaction: LogRedaction) {
    hash = StateFingerprint.hash(of: state, redaction: redaction)
    changed = Self.changedPaths(from: previous, to: state, redaction: redaction)
  }

  /// The fingerprint of `state` (see ``StateCheckpoint``), 16 hexadecimal digits.
  public static func fingerprint<State>(of state: State, redaction: LogRedaction) -> String {
    StateFingerprint.hash(of: state, redaction: redaction)
  }

  /// The paths at which `new` differs from `old`, at most ``maximumChangedPaths``.
  public static func changedPaths<State>(
    from old: State, to new: State, redaction: LogRedaction
  ) -> [String] {
    cappedValueDifferences(
      from: old, to: new, render: { String(describing: $0) },
      isRedacted: { redaction.isRedacted($0) }, skipsEqualValues: true,
      identifiesElements: true, maximumCount: maximumChangedPaths
    ).differences.map(\.path)
  }
}

/// The fingerprint of a value's structure (see ``StateCheckpoint``).
enum StateFingerprint {
  /// The deepest nesting the fingerprint descends into; deeper parts count as rendered text.
  static let maximumDepth = 64

  static func hash(of value: Any, redaction: LogRedaction) -> String {
    var hasher = FNV1a()
    add(value, to: &hasher, depth: 0, redaction: redaction)
    let hex = String(hasher.value, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }

  private static func add(_ value: Any, to hasher: inout FNV1a, depth: Int, redaction: LogRedaction)
  {
    let mirror = Mirror(reflecting: value)
    guard depth < maximumDepth, let style = mirror.displayStyle, !mirror.children.isEmpty
    else {
      hasher.add(text: String(describing: value))
      return
    }
    switch style {
    case .set, .dictionary:
      // Order-free: the sum of the parts' own hashes.
      var sum: UInt64 = 0
      for child in mirror.children {
        var part = FNV1a()
        add(child.value, to: &part, depth: depth + 1, redaction: redaction)
        sum &+= part.value
      }
      hasher.add(text: style == .set ? "set" : "dictionary")
      hasher.add(word: sum)
    default:
      hasher.add(text: String(describing: style))
      for child in mirror.children {
        let label = child.label ?? ""
        hasher.add(text: label)
        if !label.isEmpty && redaction.isRedacted(label) { continue }
        add(child.value, to: &hasher, depth: depth + 1, redaction: redaction)
      }
      hasher.add(text: "end")
    }
  }
}

/// The 64-bit FNV-1a hash.
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
  }

  /// Adds `text`'s UTF-8 bytes and a terminator, so that "ab","c" and "a","bc" differ.
  mutating func add(text: String) {
    for byte in text.utf8 { add(byte: byte) }
    add(byte: 0xFF)
  }

  mutating func add(word: UInt64) {
    for shift in stride(from: 0, to: 64, by: 8) {
      add(byte: UInt8(truncatingIfNeeded: word >> shift))
    }
  }
}

extension ActionRecording {
  /// Makes this a checked recording: `start` is the state before the first action (kept as
  /// JSON when it is `Encodable`), `states[i]` the state action `i` produced; each gets its
  /// checkpoint, leaving out the secrets of `redaction`.
  ///
  /// - Precondition: `states` has one state per action.
  package mutating func addCheckpoints(start: Any, states: [Any], redaction: LogRedaction) {
    precondition(states.count == actions.count, "ActionRecording: one state per action")
    redactedFieldNames = redaction.fieldNames.sorted()
    self.start = StateCheckpoint(
      hash: StateFingerprint.hash(of: start, redaction: redaction), changed: [])
    if let encodable = start as? any Encodable, let data = try? JSONEncoder().encode(encodable) {
      startState = try? JSONDecoder().decode(JSONValue.self, from: data)
    }
    var previous = start
    checkpoints = states.map { state in
      defer { previous = state }
      return StateCheckpoint(of: state, previous: previous, redaction: redaction)
    }
  }
}
