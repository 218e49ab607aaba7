#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps the last actions and mutations of one reactor, each mutation with the state it
/// produced, and exports them on demand as a ``ReactorRecording`` that a test replays
/// (`ReactorTestStore.replay(_:)`), checking each state: the reactor counterpart of
/// ``FlightRecorder``.
///
/// ```swift
/// let flight = ReactorFlightRecorder(recording: profileReactor, capacity: 300)
/// // when the user reports a bug:
/// let data = try flight.exportData()
/// ```
///
/// It observes the reactor through a ``ReactorHook``, from the next action or mutation on,
/// until ``stop()`` or until the recorder is freed; it does not retain the reactor.
/// Checkpoints are computed when exporting; per event it costs one lock and a slot of the
/// ring, and it keeps the states it recorded (a state shares storage with the reactor's, as in
/// ``FlightRecorder``).
///
/// ## What is and isn't captured
///
/// The actions the reactor received (after `transform(action:)`), rendered as text with
/// secret fields redacted (``LogRedaction``) when exported: they are for reading, and need
/// not be `Codable`. The mutations it reduced (those its `mutate` emitted and those
/// `transform(mutation:)` merged in), as JSON, and a checkpoint of each resulting state (as
/// `reduce` returned it, before `transform(state:)`). Nothing while the reactor's stub is
/// enabled, and nothing after a crash: export while the process runs. The mutations and the
/// start state are exported as they are, secrets included, since replaying needs them: pass
/// a `redaction` to ``exportData(limits:redaction:)`` for a copy to share.
///
/// ## Threading
///
/// Thread-safe: the reactor records on the thread that processes its actions, and any
/// thread may export.
public final class ReactorFlightRecorder<R: Reactor>: @unchecked Sendable
where R.Mutation: Codable, R.State: Codable {
  // Safety: `ring` is a locked box; `hook` is a thread-safe disposable and the other
  // members are immutable.
  /// The most events (actions and mutations) the recorder keeps.
  public let capacity: Int
  private let redaction: LogRedaction
  private let ring: LockedBox<Ring>
  private let hook: Disposable

  /// The recorded events, oldest first, and the state before the oldest.
  private struct Ring {
    enum Entry {
      case action(Any)
      case mutation(R.Mutation, R.State)
    }

    var entries: [Entry?]
    var next = 0
    var count = 0
    var base: R.State

    mutating func append(_ entry: Entry, capacity: Int) {
      if count == capacity {
        if case .mutation(_, let state) = entries[next] { base = state }
      } else {
        count += 1
      }
      entries[next] = entry
      next = next + 1 == capacity ? 0 : next + 1
    }

    var ordered: [Entry] {
      let first = count < entries.count ? 0 : next
      return (0..<count).compactMap { entries[(first + $0) % entries.count] }
    }
  }

  /// Starts recording `reactor`.
  ///
  /// - Parameters:
  ///   - reactor: The reactor to record; its current state is the start state.
  ///   - capacity: The most events it keeps (at least 1); the oldest are dropped first.
  ///   - redaction: The secret field names that the checkpoints and the actions' text leave
  ///     out; the app's shared setting by default.
  public init(recording reactor: R, capacity: Int = 1_000, redaction: LogRedaction = .shared) {
    precondition(capacity >= 1, "ReactorFlightRecorder: the capacity must be at least 1")
    self.capacity = capacity
    self.redaction = redaction
    let ring = LockedBox(
      Ring(entries: Array(repeating: nil, count: capacity), base: reactor.currentState))
    self.ring = ring
    hook = reactor.addHook(
      ReactorHook(
        mutate: { action, next in
          ring.withLock { $0.append(.action(action), capacity: capacity) }
          return next(action)
        },
        reduce: { state, mutation, next in
          let after = next(state, mutation)
          ring.withLock { $0.append(.mutation(mutation, after), capacity: capacity) }
          return after
        }))
  }

  deinit {
    hook.dispose()
  }

  /// Stops recording; what was recorded stays and can be exported.
  public func stop() {
    hook.dispose()
  }

  /// The number of events kept.
  public var recordedCount: Int { ring.withLock { $0.count } }

  /// The kept events with their checkpoints, and the state before them.
  public var recording: ReactorRecording<R> {
    let (entries, base) = ring.withLock { ($0.ordered, $0.base) }
    let renderer = ValueRenderer(
      isRedacted: { [redaction] in redaction.isRedacted($0) },
      redactedText: redaction.replacement, redactsWholeValues: redaction.redactsWholeValues)
    var previous = base
    var recording = ReactorRecording<R>(
      entries.map { entry in
        switch entry {
        case .action(let action):
          return .action(renderer.render(action))
        case .mutation(let mutation, let state):
          defer { previous = state }
          return .mutation(
            mutation,
            checkpoint: StateCheckpoint(of: state, previous: previous, redaction: redaction))
        }
      })
    recording.redactedFieldNames = redaction.fieldNames.sorted()
    recording.start = StateCheckpoint(
      hash: StateCheckpoint.fingerprint(of: base, redaction: redaction), changed: [])
    recording.startState = base
    return recording
  }

  /// The export: ``recording`` in its JSON-lines form.
  ///
  /// - Parameters:
  ///   - limits: The limits it will be loaded with.
  ///   - redaction: For a copy to share: secret members of the mutations and the start state
  ///     are replaced; it may then not replay.
  /// - Throws: ``RecordingError``.
  public func exportData(limits: LoadingLimits = .default, redaction: LogRedaction? = nil)
    throws(RecordingError) -> Data
  {
    Data(try recording.jsonLines(limits: limits, redaction: redaction))
  }

  /// Writes the export to `url` atomically, owner-only (mode 0600).
  ///
  /// - Throws: ``RecordingError``.
  public func export(
    to url: URL, limits: LoadingLimits = .default, redaction: LogRedaction? = nil
  ) throws(RecordingError) {
    try recording.write(to: url, limits: limits, redaction: redaction)
  }
}
