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
/// exclusivity checks) and, on the main thread, take no lock and allocate nothing.
@usableFromInline
final class ObservedState<State>: Observation.Observable, @unchecked Sendable {
  // Safety: `current` and `tracking` are used only on the main thread: by the models, which
  // are main-actor isolated, and by `apply`, which only the holder of `gate` calls, on the main
  // thread. `pending` is guarded by `lock`. `gateSlot` is only accessed atomically, through
  // `gate` (see `Gate`).

  /// The storage of ``gate``: an `AtomicSlot`, so the first stored property.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case gate }
  @usableFromInline var gateSlot = AtomicSlot(0)

  /// Whether the value at one key path differs between two states (old, new).
  @usableFromInline
  typealias ChangeTest = (UnsafePointer<State>, UnsafePointer<State>) -> Bool

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
      hasChanged: @escaping ChangeTest
    ) {
      self.path = path
      self.key = key
      self.offset = offset
      self.hasChanged = hasChanged
    }
  }

  /// The members, found by the identity of their key paths first (a key path literal is one
  /// object for the life of the program), then by key path equality.
  @usableFromInline
  struct Tracking {
    /// The identity of each member's key path, in member order.
    @usableFromInline var identities: [ObjectIdentifier] = []
    @usableFromInline var members: [Member] = []
    /// The index of each member, by key path.
    @usableFromInline var indices: [AnyKeyPath: Int] = [:]
    /// Storage for the indices of changed members, used only by ``apply(_:)`` (which is never
    /// reentered), so that applying a state allocates nothing.
    @usableFromInline var changed = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    @usableFromInline var changedCapacity = 0

    @inlinable init() {}
  }

  /// The latest state applied.
  @usableFromInline let current: UnsafeMutablePointer<State>
  @usableFromInline let tracking: UnsafeMutablePointer<Tracking>
  /// The latest state received and not yet applied.
  @usableFromInline let pending: UnsafeMutablePointer<State?>
  @usableFromInline let lock = Lock()
  /// Who applies states: idle, `busy` while a state is being applied or a drain is queued,
  /// plus `announced` once a state was left pending for it; `closed` once the model is gone.
  @inlinable var gate: Gate { Gate(Slots.gate, of: self) }
  @usableFromInline let registrar = ObservationRegistrar()
  /// `\State.self`, made once so that reading the whole state finds its member by identity.
  @usableFromInline let wholeState: KeyPath<State, State> = \.self

  @inlinable
  init(_ state: State) {
    current = .allocate(capacity: 1)
    current.initialize(to: state)
    tracking = .allocate(capacity: 1)
    tracking.initialize(to: Tracking())
    pending = .allocate(capacity: 1)
    pending.initialize(to: nil)
  }

  deinit {
    current.deinitialize(count: 1)
    current.deallocate()
    tracking.pointee.changed.deallocate()
    tracking.deinitialize(count: 1)
    tracking.deallocate()
    pending.deinitialize(count: 1)
    pending.deallocate()
  }

  /// The observation identity of member `index`; the value is meaningless.
  subscript(member index: Int) -> Void {
    ()
  }

  /// The number of state key paths remembered so far (for tests).
  var memberCount: Int { tracking.pointee.members.count }

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
    read(path, changeTest: Self.equalityTest(for: path))
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
    let identity = ObjectIdentifier(path)
    let found = tracking.pointee.identities.withUnsafeBufferPointer { identities -> Int? in
      for index in identities.indices where identities[index] == identity { return index }
      return nil
    }
    return found ?? tracking.pointee.indices[path]
  }

  /// Records the access to member `index` and reads its value, `path`, from the current state.
  @inlinable
  func value<Value>(at path: KeyPath<State, Value>, member index: Int) -> Value {
    let member = Unmanaged.passUnretained(tracking.pointee.members[index])
    let offset = member._withUnsafeGuaranteedRef { member in
      registrar.access(self, keyPath: member.key)
      return member.offset
    }
    if offset >= 0 {
      return UnsafeRawPointer(current).load(fromByteOffset: offset, as: Value.self)
    }
    return current.pointee[keyPath: path]
  }

  /// Remembers `path`, the first time it is read, and returns the index of its member.
  @usableFromInline
  func remember(_ path: AnyKeyPath, offset: Int, hasChanged: @escaping ChangeTest) -> Int {
    let index = tracking.pointee.members.count
    let member = Member(
      path: path, key: \ObservedState[member: index], offset: offset, hasChanged: hasChanged)
    tracking.pointee.members.append(member)
    tracking.pointee.identities.append(ObjectIdentifier(path))
    tracking.pointee.indices[path] = index
    return index
  }

  // MARK: - Change tests

  /// `!=` on the values at `path`, specialised for `Value`. A key path made only of stored
  /// properties of structs is read straight from the state's memory, as `Store.slice` does.
  @inlinable
  static func equalityTest<Value: Equatable>(for path: KeyPath<State, Value>) -> ChangeTest {
    if let offset = MemoryLayout<State>.offset(of: path) {
      return {
        UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self)
          != UnsafeRawPointer($1).load(fromByteOffset: offset, as: Value.self)
      }
    }
    return { $0.pointee[keyPath: path] != $1.pointee[keyPath: path] }
  }

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
    return { _, _ in true }
  }

  private static func equalityChangeTest<Value: Equatable, Field>(
    _: Value.Type, _ path: KeyPath<State, Field>
  ) -> ChangeTest {
    // `Value` is `Field`, opened from its metatype.
    equalityTest(for: path as! KeyPath<State, Value>)
  }

  private static func countChangeTest<Value: UpdateCounting, Field>(
    _: Value.Type, _ path: KeyPath<State, Field>
  ) -> ChangeTest {
    // `Value` is `Field`, opened from its metatype.
    let path = path as! KeyPath<State, Value>
    return {
      $0.pointee[keyPath: path].valueUpdatedCount != $1.pointee[keyPath: path].valueUpdatedCount
    }
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
    // A copy, in case an `==` reads the model and so adds a member.
    let members = tracking.pointee.members
    if tracking.pointee.changedCapacity < members.count { growChanged(to: members.count) }
    let changed = tracking.pointee.changed
    var changedCount = 0
    withUnsafePointer(to: newState) { new in
      let old = UnsafePointer(current)
      members.withUnsafeBufferPointer { members in
        for index in members.indices {
          let member = Unmanaged.passUnretained(members[index])
          if member._withUnsafeGuaranteedRef({ $0.hasChanged(old, new) }) {
            changed[changedCount] = index
            changedCount += 1
          }
        }
      }
    }
    guard changedCount > 0 else {
      current.pointee = newState
      return
    }
    // Observers may add members meanwhile (which never grows `changed`: only `apply` does), so
    // each key is looked up afresh.
    for position in 0..<changedCount {
      withKey(of: changed[position]) { registrar.willSet(self, keyPath: $0) }
    }
    current.pointee = newState
    for position in 0..<changedCount {
      withKey(of: changed[position]) { registrar.didSet(self, keyPath: $0) }
    }
  }

  /// Calls `body` with the registrar's key path for member `index`.
  @inlinable
  func withKey(of index: Int, _ body: (KeyPath<ObservedState, Void>) -> Void) {
    Unmanaged.passUnretained(tracking.pointee.members[index])._withUnsafeGuaranteedRef {
      body($0.key)
    }
  }

  /// Makes room in ``Tracking/changed`` for `capacity` indices.
  @usableFromInline
  func growChanged(to capacity: Int) {
    let capacity = max(capacity, 2 * tracking.pointee.changedCapacity)
    tracking.pointee.changed.deallocate()
    tracking.pointee.changed = .allocate(capacity: capacity)
    tracking.pointee.changedCapacity = capacity
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
  @inlinable
  func receiveContended(_ state: State) {
    lock.lock()
    pending.pointee = state
    switch gate.claimOrAnnounceLocked() {
    case .closed:
      pending.pointee = nil
      lock.unlock()
      return
    case .announced:
      lock.unlock()
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
        pending.pointee = nil
        lock.unlock()
        return
      }
      // `cancel()` closes the gate without the lock: the locked operations keep that bit.
      guard let state = pending.pointee.take() else {
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
