#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Keeps the last actions a store reduced, each with the state it produced, cheaply enough to
/// leave installed in a release build, and exports them on demand as a recording that a test
/// replays (`TestStore.replay(_:)`), checking each state: a bug report becomes a failing test.
///
/// ```swift
/// let flight = FlightRecorder<AppState>(registry: registry, capacity: 500)
/// let store = Store(reducer: AppState.reducer, state: AppState(), plugins: [flight.forStore()])
/// // when the user reports a bug (a share sheet, a debug menu):
/// let data = try flight.exportData()
/// ```
///
/// The export is an ``ActionRecording`` in its JSON-lines form. Its header names the state
/// type and holds the state before the first exported action (the oldest ones are dropped
/// once `capacity` is reached), and each action line holds a ``StateCheckpoint`` of the state
/// the action produced: a fingerprint and the changed paths, not the state. Checkpoints are
/// computed when exporting, not per dispatch.
///
/// ## Costs
///
/// Per dispatch: one lock and one slot of the ring, about what the inspector costs while no
/// page is open. The ring holds the states it recorded, as a ``StateHistory`` does: a state
/// kept there shares storage with the store's, so the next change copies what it changes
/// once; keep large lists in an ``IdentifiedList`` so that this is a few nodes.
///
/// ## What is and isn't captured
///
/// Store actions as they reached the reducer (after middleware, as replaying needs), of types
/// in `registry` (an export with an action of another type throws
/// ``RecordingError/unregisteredAction(type:)`` naming it). Not captured: reactors' own
/// actions and mutations (a ``ReactorFlightRecorder`` records those), and a crash: export
/// while the process runs, from a bug-report screen, or when the process is asked to stop
/// (``exportWhenSignalled(to:signals:limits:redaction:then:)`` exports on `SIGINT`, `SIGTERM`
/// and `SIGHUP`). A crash (`SIGSEGV`, a failed `precondition`) ends the process before any
/// Swift code can safely write a file. Secret fields
/// (``LogRedaction``) are left out of the checkpoints; the actions and the start state are
/// exported as they are, since replaying needs the real values, so treat an export like the
/// data it holds, or pass a `redaction` to ``exportData(limits:redaction:)`` for a copy to
/// share that may not replay.
///
/// ## Threading
///
/// Thread-safe.
public final class FlightRecorder<State: Codable>: Sendable {
  /// The most actions the recorder keeps.
  public let capacity: Int
  private let registry: ActionRegistry
  private let redaction: LogRedaction
  private let ring: FlightRing

  /// Creates a flight recorder.
  ///
  /// - Parameters:
  ///   - registry: The action types it can export.
  ///   - capacity: The most actions it keeps (at least 1); the oldest are dropped first.
  ///   - redaction: The secret field names the checkpoints leave out; the app's shared
  ///     setting by default.
  public init(
    registry: ActionRegistry, capacity: Int = 1_000, redaction: LogRedaction = .shared
  ) {
    precondition(capacity >= 1, "FlightRecorder: the capacity must be at least 1")
    self.capacity = capacity
    self.registry = registry
    self.redaction = redaction
    ring = FlightRing(capacity: capacity)
  }

  /// The plugin that records a store's reductions (install it in
  /// ``Store/init(reducer:state:middleware:plugins:)``, or in a running store with
  /// ``Store/install(_:)``).
  public func forStore() -> ForStore { ForStore(recorder: self) }

  /// A ``FlightRecorder`` installed in a store (``FlightRecorder/forStore()``).
  public struct ForStore: StorePlugin {
    let recorder: FlightRecorder

    public func install(in setup: inout StorePluginSetup<State>) {
      let ring = recorder.ring
      setup.wrapReducer { base in
        Reducer(
          unchecked: { state, action in
            base.reduce(&state, action)
            ring.record(action, state)
          }, ())
      }
      setup.onStart { store in
        if let state = store.currentState { ring.start(from: state) }
        return Disposables.create()
      }
    }
  }

  /// The number of actions kept.
  public var recordedCount: Int { ring.snapshot().events.count }

  /// The kept actions with their checkpoints, the state before them, and the redaction the
  /// checkpoints use.
  public var recording: ActionRecording {
    let (events, start) = ring.snapshot()
    var recording = ActionRecording(events.map(\.action), stateType: State.self)
    recording.redactedFieldNames = redaction.fieldNames.sorted()
    if let start {
      recording.addCheckpoints(start: start, states: events.map(\.state), redaction: redaction)
    }
    return recording
  }

  /// The export: ``recording`` in its JSON-lines form.
  ///
  /// - Parameters:
  ///   - limits: The limits it will be loaded with.
  ///   - redaction: For a copy to share: secret members of the actions are replaced (see
  ///     ``ActionRecording/jsonLines(registry:limits:redaction:)``); it may then not replay.
  /// - Throws: ``RecordingError``, for example for an action of a type the registry lacks.
  public func exportData(limits: LoadingLimits = .default, redaction: LogRedaction? = nil)
    throws(RecordingError) -> Data
  {
    Data(try recording.jsonLines(registry: registry, limits: limits, redaction: redaction))
  }

  /// Writes the export to `url` atomically, owner-only (mode 0600).
  ///
  /// - Throws: ``RecordingError``.
  public func export(
    to url: URL, limits: LoadingLimits = .default, redaction: LogRedaction? = nil
  ) throws(RecordingError) {
    try recording.write(to: url, registry: registry, limits: limits, redaction: redaction)
  }
}

/// A flight recorder's ring, not generic (a generic one looked up the metadata of its tuples
/// on every dispatch): the last actions, each with the state it produced as `Any`, and the
/// state before the oldest.
final class FlightRing: @unchecked Sendable {
  // Safety: `contents` is accessed only with `lock` held; `capacity` is immutable.
  /// What the lock guards.
  struct Contents {
    var actions: ContiguousArray<(any Action)?>
    var states: ContiguousArray<Any?>
    var next = 0
    var count = 0
    /// The state before the oldest kept action.
    var base: Any?
  }

  private let lock = Lock()
  private let contents: ExclusiveCell<Contents>
  private let capacity: Int

  init(capacity: Int) {
    self.capacity = capacity
    contents = ExclusiveCell(
      Contents(
        actions: ContiguousArray(repeating: nil, count: capacity),
        states: ContiguousArray(repeating: nil, count: capacity)))
  }

  /// Keeps `state` as the state before the first action, unless there is one already.
  func start(from state: Any) {
    lock.lock()
    if contents.value.base == nil { contents.value.base = state }
    lock.unlock()
  }

  /// Keeps `action` and the state it produced, dropping the oldest when full.
  @inline(__always)
  func record(_ action: any Action, _ state: Any) {
    lock.lock()
    let slot = contents.value.next
    if contents.value.count == capacity {
      contents.value.base = contents.value.states[slot]
    } else {
      contents.value.count += 1
    }
    contents.value.actions[slot] = action
    contents.value.states[slot] = state
    contents.value.next = slot + 1 == capacity ? 0 : slot + 1
    lock.unlock()
  }

  /// The kept events, oldest first, and the state before them.
  func snapshot() -> (events: [(action: any Action, state: Any)], start: Any?) {
    lock.lock()
    defer { lock.unlock() }
    let contents = self.contents.value
    let first = contents.count < capacity ? 0 : contents.next
    let events = (0..<contents.count).compactMap { offset -> (action: any Action, state: Any)? in
      let slot = (first + offset) % capacity
      guard let action = contents.actions[slot], let state = contents.states[slot] else {
        return nil
      }
      return (action, state)
    }
    return (events, contents.base)
  }
}
