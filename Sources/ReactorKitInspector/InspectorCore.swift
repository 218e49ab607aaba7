import ReactorKit

/// What an inspector's bridges (on the app's threads) and its server (on its own threads)
/// share: the event ring, the sources, the pause switch and the policies.
final class InspectorCore: @unchecked Sendable {
  // Safety: `sources` and `jumpableStores` are guarded by `lock`; `mode` and
  // `droppedWhilePaused` are atomic; everything else is immutable.
  let ring: EventRing
  let redaction: LogRedaction
  let registry: ActionRegistry?
  let limits: InspectorLimits
  /// 0 recording, 1 paused, 2 closed (the inspector was released: nothing is recorded).
  private let modeBox = AtomicBox<Int>(0)
  private var mode: UnsafeAtomic<Int> { modeBox.atomic }
  let droppedWhilePausedBox = AtomicBox<Int>(0)
  var droppedWhilePaused: UnsafeAtomic<Int> { droppedWhilePausedBox.atomic }
  private let lock = Lock()
  private var sources: [WeakSource] = []
  private var jumpableStores: Set<String> = []

  init(
    capacity: Int, redaction: LogRedaction, registry: ActionRegistry?, limits: InspectorLimits
  ) {
    ring = EventRing(capacity: capacity, byteBudget: limits.maximumRetainedBytes)
    self.redaction = redaction
    self.registry = registry
    self.limits = limits
  }

  /// Stops recording for good and empties the ring (whose events hold the sources, which
  /// hold the core).
  func shutDown() {
    mode.store(2, ordering: .releasing)
    ring.removeAll()
  }

  // MARK: - Sources

  func register(_ source: any InspectedSource) {
    lock.withLock {
      sources.removeAll { $0.source == nil }
      sources.append(WeakSource(source: source))
    }
  }

  /// The live sources, in the order they were added.
  var allSources: [any InspectedSource] {
    lock.withLock { sources.compactMap(\.source) }
  }

  /// The live source named `name` (the most recently added, if several share it).
  func source(named name: String) -> (any InspectedSource)? {
    allSources.last { $0.name == name }
  }

  func markJumpable(_ name: String) {
    lock.withLock { _ = jumpableStores.insert(name) }
  }

  func isJumpable(_ name: String) -> Bool {
    lock.withLock { jumpableStores.contains(name) }
  }

  // MARK: - Recording

  /// Whether events are being recorded; while paused the bridges count what they skip.
  @inline(__always)
  var isRecording: Bool {
    let mode = mode.load(ordering: .relaxed)
    if mode == 0 { return true }
    if mode == 1 { droppedWhilePaused.add(1, ordering: .relaxed) }
    return false
  }

  var isPaused: Bool { mode.load(ordering: .relaxed) == 1 }

  func setPaused(_ isPaused: Bool) {
    let (exchanged, previous) = mode.compareExchange(
      expected: isPaused ? 0 : 1, desired: isPaused ? 1 : 0, ordering: .acquiringAndReleasing)
    guard exchanged, previous == 1 else { return }
    let dropped = droppedWhilePaused.exchange(0, ordering: .relaxed)
    note("Resumed: \(dropped) event\(dropped == 1 ? "" : "s") not recorded while paused.")
  }

  /// Records a note from the inspector itself.
  func note(_ text: String, source: (any InspectedSource)? = nil) {
    let source = source?.info ?? InspectorNoteSource.shared.info
    ring.append(kind: .note, source: source, note: text)
  }
}

/// The source of the inspector's own notes.
final class InspectorNoteSource: WatchedOnlySource {
  static let shared = InspectorNoteSource()
  let info = SourceInfo(name: "inspector", kindName: "inspector")
  func currentState() -> Any? { nil }
}
