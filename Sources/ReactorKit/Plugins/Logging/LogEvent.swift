#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One entry of the log a ``LoggingPlugin`` writes: an action, a mutation or a new state,
/// from a store or a reactor.
public struct LogEvent: Sendable, Equatable {
  /// What an event records.
  public enum Kind: String, Sendable, Codable, CaseIterable {
    /// An action dispatched to a store, or sent to a reactor (after `transform(action:)`).
    case action
    /// A mutation a reactor is about to reduce.
    case mutation
    /// The state after a reduction, as the changes from the previous state.
    case state
  }

  /// One changed value in a ``Kind/state`` event.
  public struct Change: Sendable, Equatable, Codable {
    /// Where the value changed, key-path style without the root: `.todos.items[2].title`.
    public var path: String
    /// The value before, rendered; `nil` when it did not exist (an added element).
    public var old: String?
    /// The value after, rendered; `nil` when it no longer exists (a removed element).
    public var new: String?

    /// Creates a change.
    public init(path: String, old: String?, new: String?) {
      self.path = path
      self.old = old
      self.new = new
    }
  }

  /// The event's position in its plugin's log, from 1, without gaps.
  public var sequence: UInt64
  /// When the event happened, from the plugin's ``LogClock``.
  public var timestamp: Date
  /// Who produced it: the name given when attaching (`"store"`, the reactor's type name).
  public var source: String
  public var kind: Kind
  /// The action or mutation, rendered with secrets redacted; for a state event, the changes
  /// on one line (`"no changes"` when there are none).
  public var description: String
  /// For a state event, what changed; empty otherwise.
  public var changes: [Change]
  /// For a state event, how long the reduction took (see ``LoggingPlugin``); `nil` otherwise.
  public var duration: Duration?
  /// For a state event, how many more values changed than ``changes`` lists (a plugin lists
  /// at most its `maximumChangesPerEvent`); 0 otherwise.
  public var omittedChanges: Int
  /// For a notice from the plugin itself (source `"LoggingPlugin"`), how many events it dropped
  /// just before this one because its queue was full; 0 for every other event.
  public var droppedEvents: Int

  /// Creates an event.
  public init(
    sequence: UInt64, timestamp: Date, source: String, kind: Kind, description: String,
    changes: [Change] = [], duration: Duration? = nil, omittedChanges: Int = 0,
    droppedEvents: Int = 0
  ) {
    self.sequence = sequence
    self.timestamp = timestamp
    self.source = source
    self.kind = kind
    self.description = description
    self.changes = changes
    self.duration = duration
    self.omittedChanges = omittedChanges
    self.droppedEvents = droppedEvents
  }
}

/// How a ``LogSink`` writes events as text.
public enum LogFormat: Sendable {
  /// For people: one header line per event, then one indented line per state change.
  ///
  /// `2025-01-31T09:15:02.125Z #3 [store] state 0.012 ms`
  case text
  /// For tools: one JSON object per line, keys sorted (see ``LogEvent``'s `Codable` form).
  case jsonLines
}

extension LogEvent: Codable {
  private enum CodingKeys: String, CodingKey {
    case sequence, timestamp, source, kind, description, changes, durationNanoseconds
    case omittedChanges, droppedEvents
  }

  /// Decodes an event from its JSON-lines form.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sequence = try container.decode(UInt64.self, forKey: .sequence)
    let text = try container.decode(String.self, forKey: .timestamp)
    guard let timestamp = LogTimestamp.parse(text) else {
      throw DecodingError.dataCorruptedError(
        forKey: .timestamp, in: container, debugDescription: "Not an ISO 8601 time: \(text)")
    }
    self.timestamp = timestamp
    source = try container.decode(String.self, forKey: .source)
    kind = try container.decode(Kind.self, forKey: .kind)
    description = try container.decode(String.self, forKey: .description)
    changes = try container.decodeIfPresent([Change].self, forKey: .changes) ?? []
    duration = try container.decodeIfPresent(Int64.self, forKey: .durationNanoseconds).map {
      .nanoseconds($0)
    }
    omittedChanges = try container.decodeIfPresent(Int.self, forKey: .omittedChanges) ?? 0
    droppedEvents = try container.decodeIfPresent(Int.self, forKey: .droppedEvents) ?? 0
  }

  /// Encodes the event: `timestamp` as ISO 8601 with milliseconds, `duration` as
  /// `durationNanoseconds`, `changes` only for state events, `omittedChanges` and
  /// `droppedEvents` only when not 0.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(LogTimestamp.format(timestamp), forKey: .timestamp)
    try container.encode(source, forKey: .source)
    try container.encode(kind, forKey: .kind)
    try container.encode(description, forKey: .description)
    if kind == .state { try container.encode(changes, forKey: .changes) }
    if let duration { try container.encode(duration.nanoseconds, forKey: .durationNanoseconds) }
    if omittedChanges > 0 { try container.encode(omittedChanges, forKey: .omittedChanges) }
    if droppedEvents > 0 { try container.encode(droppedEvents, forKey: .droppedEvents) }
  }
}

extension LogEvent {
  /// The event as `format` writes it, without a trailing newline.
  public func formatted(as format: LogFormat) -> String {
    switch format {
    case .text:
      var header = "\(LogTimestamp.format(timestamp)) #\(sequence) [\(source)] \(kind.rawValue)"
      if kind == .state {
        if let duration { header += " " + Self.milliseconds(duration) }
        guard !changes.isEmpty || omittedChanges > 0 else {
          // A state event without changes is either a diff that found none or a custom event
          // (`LoggingPlugin.log(source:kind:description:)`), whose text is written as is.
          let isDiffSummary = description.isEmpty || description == Self.summary(of: [])
          return header + (isDiffSummary ? " (no changes)" : " " + description)
        }
        var lines = [header] + changes.map { "  " + $0.line }
        if omittedChanges > 0 { lines.append("  … and \(omittedChanges) more") }
        return lines.joined(separator: "\n")
      }
      return header + " " + description
    case .jsonLines:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      guard let data = try? encoder.encode(self) else { return "{}" }
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// `0.012 ms`: a duration in milliseconds with three decimals.
  static func milliseconds(_ duration: Duration) -> String {
    let microseconds = max(0, duration.nanoseconds / 1_000)
    let fraction = String(microseconds % 1_000)
    return
      "\(microseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) ms"
  }

  /// The one-line form of `changes`, used as a state event's description.
  static func summary(of changes: [Change], omitted: Int = 0) -> String {
    guard !changes.isEmpty || omitted > 0 else { return "no changes" }
    var parts = changes.map(\.line)
    if omitted > 0 { parts.append("… and \(omitted) more") }
    return parts.joined(separator: "; ")
  }
}

extension LogEvent.Change {
  /// `\.path: old → new`, with `(none)` for a missing side.
  var line: String {
    "\\\(path.isEmpty ? "." : path): \(old ?? "(none)") → \(new ?? "(none)")"
  }

  init(_ difference: ValueDifference) {
    switch difference.kind {
    case .changed(let old, let new): self.init(path: difference.path, old: old, new: new)
    case .removed(let old): self.init(path: difference.path, old: old, new: nil)
    case .added(let new): self.init(path: difference.path, old: nil, new: new)
    case .missingElement(let element): self.init(path: difference.path, old: element, new: nil)
    case .extraElement(let element): self.init(path: difference.path, old: nil, new: element)
    }
  }
}

extension Duration {
  /// The whole duration in nanoseconds, saturating.
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
  }
}
