import ReactorKit

/// The action an inspector dispatches to move a store to a recorded state; the reducer wrapper
/// that ``Inspector/forStore(source:redacting:)`` installs handles it by replacing the state.
/// Other middleware and loggers see it as an ordinary action (it reflects as its target only,
/// never the state).
public struct InspectorTimeTravel: Action, CustomReflectable {
  let state: UncheckedState
  /// The timeline entry whose state is restored; `nil` when going back to live.
  public let target: UInt64?

  public var customMirror: Mirror {
    Mirror(self, children: ["target": target.map { "#\($0)" } ?? "live"])
  }
}

/// The store side of an inspector: its middleware records each action with the states before
/// and after it, and time travel dispatches an ``InspectorTimeTravel`` through the store.
final class StoreSource<State>: InspectedSource, @unchecked Sendable {
  // Safety: `getState`, `send` and `liveState` are guarded by `lock`; `jumped` is atomic;
  // `sizes` is only used by the middleware, which the store runs for one action at a time;
  // the rest is immutable. The closures are the store's own thread-safe accessors.
  let info: SourceInfo
  private let core: InspectorCore
  /// The core's ring, unretained (the core keeps it): appending through it retains nothing.
  private let ring: UnretainedReference<EventRing>
  private let lock = Lock()
  private var getState: (() -> State)?
  private var send: ((any Action) -> Void)?
  private var liveState: State?
  private let jumpedBox = AtomicBox<UInt64>(0)
  /// The bytes each recorded state keeps alive (for the ring's byte budget), for a state type
  /// with references; a state without is counted as ``plainBytes``.
  private var sizes = RetainedBytes()
  private let isPlain = _isPOD(State.self)
  /// What an event of a state without references counts: 0 for a small one (the capacity
  /// bounds those), its size for a large one.
  private let plainBytes =
    MemoryLayout<State>.size > 1_024 ? RetainedBytes.plainEstimate(State.self) : 0
  private var jumped: UnsafeAtomic<UInt64> { jumpedBox.atomic }

  init(name: String, core: InspectorCore, redactions: [Redaction<State>]) {
    let redacting = UncheckedRedactions(redactions)
    info = SourceInfo(
      name: name, kindName: "store", stateType: String(reflecting: State.self),
      redacted: { state in
        guard !redacting.redactions.isEmpty, let state = state as? State else { return state }
        return redacting.redactions.redacting(state)
      })
    self.core = core
    ring = UnretainedReference(core.ring)
  }

  /// The bytes `state` keeps alive that the previous recorded state does not.
  @inline(__always)
  private func retainedBytes(_ state: State) -> Int {
    if isPlain { return plainBytes }
    return sizes.estimate(state)
  }

  /// The middleware that records into this source.
  func middleware() -> Middleware<State> {
    .redux { [self] getState, dispatch in
      lock.withLock {
        self.getState = getState
        self.send = dispatch
      }
      // The first entry: the state the store starts from (the first action's diff is taken
      // against it).
      let initial = getState()
      record(
        kind: .note, value: nil, before: nil, after: initial, note: "\(name): initial state",
        bytes: retainedBytes(initial))
      return { next in
        { [self] action in handle(action, getState: getState, next: next) }
      }
    }
  }

  private func handle(
    _ action: any Action, getState: () -> State, next: (any Action) -> Void
  ) {
    guard core.isRecording else { return next(action) }
    if InspectorTimeTravel.isTimeTravel(action) {
      next(action)
      let target = (action as? InspectorTimeTravel)?.target
      let after = getState()
      record(
        kind: .jump, value: nil, before: nil, after: after,
        note: target.map { "\(name): jumped to the state after #\($0)" }
          ?? "\(name): back to live", bytes: retainedBytes(after))
      return
    }
    // No copy of the state before: the diff is taken from the previous entry of this store
    // when a page renders it (every reduction passes through here when this middleware is
    // the last).
    next(action)
    let after = getState()
    if jumped.load(ordering: .relaxed) != 0 { continueFromPast() }
    let bytes = retainedBytes(after)
    _ = ring.withObject {
      $0.append(kind: .action, source: info, value: action, after: after, bytes: bytes)
    }
  }

  private func record(
    kind: InspectorEventKind, value: Any?, before: Any?, after: Any?, note: String?,
    bytes: Int
  ) {
    core.ring.append(
      kind: kind, source: info, value: value, before: before, after: after, note: note,
      bytes: bytes)
  }

  /// An app action arrived while the store showed an earlier state: it was reduced on that
  /// state, which is now the live one.
  private func continueFromPast() {
    let target = jumped.exchange(0, ordering: .relaxed)
    let discarded = lock.withLock { () -> State? in
      defer { liveState = nil }
      return liveState
    }
    _ = discarded
    guard target != 0 else { return }
    core.note(
      "\(name): an action arrived while at #\(target); the store continues from that state "
        + "(it is live again).", source: self)
  }

  // MARK: - InspectedSource

  func currentState() -> Any? {
    lock.withLock { getState }?()
  }

  var canJump: Bool { core.isJumpable(name) }

  var canDispatch: Bool { core.registry != nil && lock.withLock { send != nil } }

  var jumpTarget: UInt64? {
    let target = jumped.load(ordering: .relaxed)
    return target == 0 ? nil : target
  }

  func jump(to sequence: UInt64, state: Any) -> Bool {
    guard canJump, let state = state as? State else { return false }
    let send = lock.withLock { () -> ((any Action) -> Void)? in
      if liveState == nil { liveState = getState?() }
      return self.send
    }
    guard let send else { return false }
    jumped.store(sequence, ordering: .relaxed)
    send(InspectorTimeTravel(state: UncheckedState(state), target: sequence))
    return true
  }

  func goLive() -> Bool {
    let (live, send) = lock.withLock { () -> (State?, ((any Action) -> Void)?) in
      defer { liveState = nil }
      return (liveState, self.send)
    }
    guard let live, let send else { return false }
    jumped.store(0, ordering: .relaxed)
    send(InspectorTimeTravel(state: UncheckedState(live), target: nil))
    return true
  }

  func dispatch(_ action: any Action) -> Bool {
    guard let send = lock.withLock({ self.send }) else { return false }
    send(action)
    return true
  }
}

/// A source's redactions, for its ``SourceInfo``.
struct UncheckedRedactions<State>: @unchecked Sendable {
  // Safety: immutable; the closures only edit the copies of states they are given.
  let redactions: [Redaction<State>]
  init(_ redactions: [Redaction<State>]) { self.redactions = redactions }
}

/// A state handed back to the store it came from.
struct UncheckedState: @unchecked Sendable {
  // Safety: the value is only moved from the server thread into the store's reducer, which
  // serialises access; the inspector never mutates it.
  let value: Any
  init(_ value: Any) { self.value = value }
}

extension InspectorTimeTravel {
  /// Whether `action` is an ``InspectorTimeTravel``: the existential is opened and its type
  /// compared by identity (a few instructions, where `type(of:)` or a cast would look the
  /// dynamic type up in the runtime).
  @usableFromInline
  static func isTimeTravel(_ action: any Action) -> Bool {
    func check<Opened: Action>(_: Opened) -> Bool {
      ObjectIdentifier(Opened.self) == ObjectIdentifier(InspectorTimeTravel.self)
    }
    return check(action)
  }

  /// Replaces `state` with the travel's state (called by the reducer ``Inspector`` wraps).
  @usableFromInline
  static func restore<State>(_ action: any Action, into state: inout State) {
    if let travel = action as? InspectorTimeTravel, let restored = travel.state.value as? State {
      state = restored
    }
  }
}
