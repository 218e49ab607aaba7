import Dispatch
import Observation
import ReactorKitStreams

/// The state behind ``ObservedReactor`` and ``ObservedStore``, with property-level
/// observation tracking.
///
/// Each key path of the state that is read through ``read(_:)`` becomes a ``Member``, with a
/// way to tell whether its value changed between two states: `!=` for `Equatable` values, the
/// assignment count for a ``Pulse``, and "always" for anything else. ``apply(_:)`` tells the
/// registrar about exactly the members whose values changed, so an observer that read only
/// `count` is not invalidated by a state in which only `title` changed.
///
/// The object is its own observation subject: member *n* is represented by the key path
/// `\ObservedState[member: n]` (``subscript(member:)``), which is what the registrar records.
/// The public models conform to `Observation.Observable` so that SwiftUI accepts them; the
/// registrar they use lives here.
///
/// States reach the main thread through ``receive(_:)``: a state that arrives on the main
/// thread while nothing is pending is applied at once, before `receive` returns. Otherwise it
/// becomes the pending state and one drain on the main queue applies whatever is pending when
/// it runs, so a burst from another thread costs one hop and the model never shows an older
/// state after a newer one. States that arrive while a state is being applied (from an
/// observer) are applied after it, in the same drain.
///
/// The per-state and per-read paths are inlinable so that they are specialised for the state
/// type in the module that creates the model. They touch no stored `var` of a class (no
/// exclusivity checks) and, on the main thread, take no lock and allocate nothing: the state,
/// the members and the pending state live behind pointers, which only ObservedStateStorage.swift
/// touches (``current``, ``tracking``, ``pending`` and its helpers).
@usableFromInline
final class ObservedState<State>: Observation.Observable, @unchecked Sendable {
  // Safety: `current` and `tracking` are used only on the main thread: by the models, which
  // are main-actor isolated, and by `apply`, which only the holder of `gate` calls, on the main
  // thread. `pending` is guarded by `lock`. `gateSlot` is only accessed atomically, through
  // `gate` (see `Gate`). `memory`, which holds the three, is immutable.

  /// The storage of ``gate``: an `AtomicSlot`, so the first stored property.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case gate }
  @usableFromInline var gateSlot = AtomicSlot(0)

  /// A state key path that was read through the model. Immutable, so that its closure is
  /// called without a retain.
  @usableFromInline
  final class Member {
    /// The state key path; kept so that its identity is not reused by another key path.
    @usableFromInline let path: AnyKeyPath
    /// The key path the registrar records for the state key path.
    @usableFromInline let key: KeyPath<ObservedState, Void>
    /// The byte offset of the value in the state when `path` is made only of stored
    /// properties of structs, or -1.
    @usableFromInline let offset: Int
    /// Whether the value at the state key path differs between two states.
    @usableFromInline let hasChanged: ChangeTest

    @usableFromInline
    init(
      path: AnyKeyPath, key: KeyPath<ObservedState, Void>, offset: Int,
      hasChanged: ChangeTest
    ) {
      self.path = path
      self.key = key
      self.offset = offset
      self.hasChanged = hasChanged
    }
  }

  /// The current state, the members and the pending state (see ObservedStateStorage.swift).
  @usableFromInline let memory: Memory
  @usableFromInline let lock = Lock()
  /// Who applies states: idle, `busy` while a state is being applied or a drain is queued,
  /// plus `announced` once a state was left pending for it; `closed` once the model is gone.
  @inlinable var gate: Gate { Gate(Slots.gate, of: self) }
  @usableFromInline let registrar = ObservationRegistrar()
  /// `\State.self`, made once so that reading the whole state finds its member by identity.
  @usableFromInline let wholeState: KeyPath<State, State> = \.self

  @inlinable
  init(_ state: State) {
    memory = Memory(state)
  }

  deinit {
    memory.free()
  }

  /// The observation identity of member `index`; the value is meaningless.
  subscript(member index: Int) -> Void {
    ()
  }

  /// The number of state key paths remembered so far (for tests).
  var memberCount: Int { tracking.members.count }

  // MARK: - Reading

  /// Reads the value at `path` of the current state and records the access for observation
  /// tracking. Main thread only.
  @inlinable
  func read<Value>(_ path: KeyPath<State, Value>) -> Value {
    read(path, changeTest: Self.changeTest(for: path))
  }

  /// Reads the value at `path` like ``read(_:)``, comparing values with a `!=` that is
  /// specialised for `Value` where the caller knows it is `Equatable`.
  @inlinable
  func read<Value: Equatable>(_ path: KeyPath<State, Value>) -> Value {
    read(path, changeTest: .equality(at: path))
  }

  /// Reads the value at `path`, remembering the path with `changeTest` (built only when the
  /// path is read for the first time).
  @inlinable
  func read<Value>(_ path: KeyPath<State, Value>, changeTest: @autoclosure () -> ChangeTest)
    -> Value
  {
    let index =
      memberIndex(of: path)
      ?? remember(
        path, offset: MemoryLayout<State>.offset(of: path) ?? -1, hasChanged: changeTest())
    return value(at: path, member: index)
  }

  /// The index of the member for `path`, if it was read before.
  @inlinable
  func memberIndex(of path: AnyKeyPath) -> Int? {
    tracking.memberIndex(identity: ObjectIdentifier(path)) ?? tracking.indices[path]
  }

  /// Records the access to member `index` and reads its value, `path`, from the current state.
  @inlinable
  func value<Value>(at path: KeyPath<State, Value>, member index: Int) -> Value {
    let offset = withMember(index) { member in
      registrar.access(self, keyPath: member.key)
      return member.offset
    }
    return currentValue(at: path, offset: offset)
  }

  /// Remembers `path`, the first time it is read, and returns the index of its member.
  @usableFromInline
  func remember(_ path: AnyKeyPath, offset: Int, hasChanged: ChangeTest) -> Int {
    let index = tracking.members.count
    let member = Member(
      path: path, key: \ObservedState[member: index], offset: offset, hasChanged: hasChanged)
    tracking.members.append(member)
    tracking.identities.append(ObjectIdentifier(path))
    tracking.indices[path] = index
    return index
  }

  // MARK: - Change tests

  /// How to tell whether the value at `path` changed, decided once per key path: `!=` for
  /// `Equatable` values (found at run time), the assignment count for a ``Pulse``, and "always"
  /// otherwise.
  @usableFromInline
  static func changeTest<Value>(for path: KeyPath<State, Value>) -> ChangeTest {
    if let counted = Value.self as? any UpdateCounting.Type {
      return countChangeTest(counted, path)
    }
    if let equatable = Value.self as? any Equatable.Type {
      return equalityChangeTest(equatable, path)
    }
    return .always
  }

  private static func equalityChangeTest<Value: Equatable, Field>(
    _: Value.Type, _ path: KeyPath<State, Field>
  ) -> ChangeTest {
    // `Value` is `Field`, opened from its metatype.
    .equality(at: path as! KeyPath<State, Value>)
  }

  private static func countChangeTest<Value: UpdateCounting, Field>(
    _: Value.Type, _ path: KeyPath<State, Field>
  ) -> ChangeTest {
    // `Value` is `Field`, opened from its metatype.
    .updateCount(at: path as! KeyPath<State, Value>)
  }

  // MARK: - Applying states

  /// Makes `newState` the current state, announcing a change of each member whose value
  /// differs. Main thread only, by the holder of `gate`.
  ///
  /// Observers are told before and after the state is replaced (`willSet` / `didSet`), like
  /// properties of an `@Observable` class; during `willSet` the model still shows the old
  /// state. Observers may read the model (and so add members) and send actions.
  @inlinable
  func apply(_ newState: State) {
    tracking.isApplying = true
    defer { tracking.isApplying = false }
    // A copy, in case an `==` reads the model and so adds a member.
    let members = tracking.members
    let changedCount = recordChanges(among: members, to: newState)
    guard changedCount > 0 else {
      current = newState
      return
    }
    // Observers may add members meanwhile (which never grows `changed`: only `apply` does), so
    // each key is looked up afresh.
    for position in 0..<changedCount {
      withKey(of: tracking.changedMember(at: position)) { registrar.willSet(self, keyPath: $0) }
    }
    current = newState
    let explain = tracking.explainChanges.map { explain in
      (explain, (0..<changedCount).map { withMember(tracking.changedMember(at: $0)) { $0.path } })
    }
    for position in 0..<changedCount {
      withKey(of: tracking.changedMember(at: position)) { registrar.didSet(self, keyPath: $0) }
    }
    if let (explain, paths) = explain { explain(paths) }
  }

  /// Calls `handler` with the key paths of the members each applied state changes (see
  /// `ObservedStore.explainChanges(_:)`); `nil` stops. Main thread only.
  func explainChanges(_ handler: (([PartialKeyPath<State>]) -> Void)?) {
    tracking.explainChanges = handler.map { handler in
      { paths in handler(paths.map { $0 as! PartialKeyPath<State> }) }
    }
  }

  /// Calls `body` with the registrar's key path for member `index`.
  @inlinable
  func withKey(of index: Int, _ body: (KeyPath<ObservedState, Void>) -> Void) {
    withMember(index) { body($0.key) }
  }

  /// Takes a new state, on any thread.
  @inlinable
  func receive(_ state: State) {
    if MainScheduler.isMainThread, gate.tryClaim() {
      apply(state)
      if gate.tryRelease() { return }
      drain()
      return
    }
    receiveContended(state)
  }

  /// Leaves `state` pending for the holder of `gate`, or claims the idle gate and applies it
  /// (on the main thread) or queues a drain (elsewhere). A state for a model that is gone is
  /// dropped.
  ///
  /// On the main thread outside ``apply(_:)``, a busy gate can only mean a drain queued on the
  /// main queue and not yet run: the state is applied at once (it is newer than anything
  /// pending), so a dispatch on the main thread returns with the model updated, and the drain
  /// finds nothing left when it runs.
  @inlinable
  func receiveContended(_ state: State) {
    lock.lock()
    pending = state
    switch gate.claimOrAnnounceLocked() {
    case .closed:
      pending = nil
      lock.unlock()
      return
    case .announced:
      guard MainScheduler.isMainThread, !tracking.isApplying, let state = pending.take() else {
        lock.unlock()
        return
      }
      lock.unlock()
      apply(state)
      return
    case .claimed:
      lock.unlock()
    }
    if MainScheduler.isMainThread {
      drain()
    } else {
      DispatchQueue.main.async { self.drain() }
    }
  }

  /// Applies pending states until none is left, then releases the gate. Runs on the main
  /// thread, by the holder of `gate`.
  @inlinable
  func drain() {
    while true {
      lock.lock()
      if gate.state.isClosed {
        pending = nil
        lock.unlock()
        return
      }
      // `cancel()` closes the gate without the lock: the locked operations keep that bit.
      guard let state = pending.take() else {
        gate.releaseLocked()
        lock.unlock()
        return
      }
      gate.clearAnnouncementLocked()
      lock.unlock()
      apply(state)
      if gate.tryRelease() { return }
    }
  }

  /// Stops applying states: the model is gone. Any thread.
  @usableFromInline
  func cancel() {
    gate.close()
  }

  /// Subscribes to `states` and applies them on the main actor.
  ///
  /// - Returns: The subscription; disposing it also drops any state still on its way to the
  ///   main queue.
  @inlinable
  func follow(_ states: ReactorKitStreams.Observable<State>) -> Disposable {
    let subscription = states.subscribe(onNext: { self.receive($0) })
    return Disposables.create {
      self.cancel()
      subscription.dispose()
    }
  }
}

/// A value whose assignments are counted, so that a new assignment of an equal value still
/// counts as a change (``Pulse``).
protocol UpdateCounting {
  var valueUpdatedCount: UInt { get }
}

extension Pulse: UpdateCounting {}
