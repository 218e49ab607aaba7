/// Where a reactor's engine is in its life: the one authoritative record of it, kept in
/// ``ReactorCore/Shared/lifecycle`` and guarded by the core's lock.
///
/// ```
/// unwired ──wire()──▶ wired ──dispose()──▶ disposed
///    └──────────────dispose()───────────────▶┘
/// ```
///
/// ``phase`` is a closed enum: a core is being wired (actions queue, the gate is closed), or
/// wired (it processes work), or disposed (its reactor is gone; nothing more runs or is
/// delivered; terminal). While wired, the streams end independently and at most once each
/// (``Ends``): the action stream (`transform(action:)`'s output completed), the mutation stream
/// (every `mutate` result finished after the actions ended, or `transform(mutation:)`'s output
/// completed) and the state stream the core publishes itself. Ends are kept when the core is
/// disposed, so a subscriber arriving afterwards learns whether the stream had completed.
///
/// Not recorded here: who drains (``ReactorCore/gate``, with ``ReactorCore/owner`` naming the
/// draining thread), whether the transforms are being built (``ReactorCore/wiring``, a lock-free
/// latch that lets one caller run the transforms; ``phase`` becomes `wired` at its end), and
/// whether the core publishes states itself (``ReactorCore/Shared/ownsOutput``, set once by the
/// wiring).
@frozen
@usableFromInline
struct ReactorLifecycle: Equatable {
  /// The phases, in the only order they are entered.
  @usableFromInline
  enum Phase: UInt8, Equatable {
    /// Created; the transforms are being wired. Work queues until the wiring opens the gate.
    case unwired
    /// Wired: queued work is drained.
    case wired
    /// Stopped for good: queued work was dropped, subscriptions disposed.
    case disposed
  }

  /// The streams that have ended, each at most once.
  @frozen
  @usableFromInline
  struct Ends: OptionSet, Equatable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The action stream completed (or failed: the reactor ignores errors).
    @inlinable static var actions: Ends { Ends(rawValue: 1 << 0) }
    /// The mutation stream completed: no state follows.
    @inlinable static var mutations: Ends { Ends(rawValue: 1 << 1) }
    /// The state stream the core publishes itself completed.
    @inlinable static var output: Ends { Ends(rawValue: 1 << 2) }
  }

  @usableFromInline private(set) var phase: Phase
  @usableFromInline private(set) var ends: Ends

  /// A core being wired.
  @inlinable init() {
    phase = .unwired
    ends = []
  }

  /// Whether the transforms are still being wired (not yet wired, not disposed).
  @inlinable var isUnwired: Bool { phase == .unwired }
  /// Whether the core drains queued work: wired and not disposed.
  @inlinable var isWired: Bool { phase == .wired }
  /// Whether the core is disposed.
  @inlinable var isDisposed: Bool { phase == .disposed }
  /// Whether `end` has happened.
  @inlinable func hasEnded(_ end: Ends) -> Bool { ends.contains(end) }

  /// The wiring is done. A core disposed meanwhile stays disposed.
  ///
  /// - Returns: Whether the core is now wired (`false`: it was disposed while wiring).
  @inlinable
  mutating func wire() -> Bool {
    switch phase {
    case .unwired:
      phase = .wired
      return true
    case .wired: preconditionFailure("A reactor's engine is wired twice.")
    case .disposed: return false
    }
  }

  /// Disposes the core, from any phase.
  ///
  /// - Returns: Whether this call disposed it (`false`: it already was).
  @inlinable
  mutating func dispose() -> Bool {
    guard phase != .disposed else { return false }
    phase = .disposed
    return true
  }

  /// Records that `end` happened.
  ///
  /// - Returns: Whether this is the first time (a stream ends once; repeats are ignored).
  @inlinable
  mutating func end(_ end: Ends) -> Bool {
    guard !ends.contains(end) else { return false }
    ends.insert(end)
    return true
  }
}
