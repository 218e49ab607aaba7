/// What an inspector's timeline entry records.
public enum InspectorEventKind: String, Sendable, CaseIterable {
  /// An action a store reduced (with the state after it), or an action sent to a reactor.
  case action
  /// A mutation a reactor reduced, with the state after it.
  case mutation
  /// A store moved to an earlier state, or back to live, from the inspector.
  case jump
  /// A note from the inspector itself (events not recorded while paused, an import).
  case note
  /// Only in event streams: this many events were dropped from the ring before the client
  /// read them.
  case gap
}

/// One timeline entry as the app's thread records it: the values themselves, not rendered.
/// Rendering (reflection, redaction, the diff, the state tree) happens on a server thread
/// when a client reads the entry, so the app pays only for the copy.
struct RecordedEvent {
  var sequence: UInt64
  /// Seconds since 1970.
  var time: Double
  var kind: InspectorEventKind
  var source: SourceInfo
  /// The action or mutation.
  var value: Any?
  /// The state before, when the entry changed one.
  var before: Any?
  /// The state after, when the entry changed one.
  var after: Any?
  var note: String?

  /// The wall-clock time in seconds since 1970.
  @inline(__always)
  static func now() -> Double { wallClockSeconds() }
}
