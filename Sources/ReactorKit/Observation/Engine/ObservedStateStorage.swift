import ReactorKitStreams

// The memory of `ObservedState`: the current state, the tracking and the pending state behind
// pointers (so the per-state and per-read paths pay no exclusivity checks), the accessors that
// reach them, and the code that reads states in place: member values at their byte offsets,
// change tests on two states without copying them, members borrowed without retaining them.
// ObservedState.swift uses only the safe accessors and helpers below.

extension ObservedState {
  /// The allocations behind ``ObservedState/memory``: made by the model's initialiser, freed
  /// by its deinitialiser (``free()``).
  @safe
  @usableFromInline
  struct Memory {
    /// The latest state applied (``ObservedState/current``).
    @usableFromInline let current: UnsafeMutablePointer<State>
    /// ``ObservedState/tracking``.
    @usableFromInline let tracking: UnsafeMutablePointer<Tracking>
    /// The latest state received and not yet applied (``ObservedState/pending``).
    @usableFromInline let pending: UnsafeMutablePointer<State?>

    /// Allocates the memory of a model showing `state`.
    @inlinable
    init(_ state: State) {
      unsafe current = .allocate(capacity: 1)
      unsafe current.initialize(to: state)
      unsafe tracking = .allocate(capacity: 1)
      unsafe tracking.initialize(to: Tracking())
      unsafe pending = .allocate(capacity: 1)
      unsafe pending.initialize(to: nil)
    }

    /// Deinitialises and frees everything; called once, by the model's deinitialiser.
    @usableFromInline
    func free() {
      unsafe current.deinitialize(count: 1)
      unsafe current.deallocate()
      unsafe tracking.pointee.changed.deallocate()
      unsafe tracking.deinitialize(count: 1)
      unsafe tracking.deallocate()
      unsafe pending.deinitialize(count: 1)
      unsafe pending.deallocate()
    }
  }

  /// The latest state applied, in place. Main thread only.
  @inlinable @inline(__always) var current: State {
    _read { yield unsafe memory.current.pointee }
    _modify { yield unsafe &memory.current.pointee }
  }

  /// The members, in place. Main thread only.
  @inlinable @inline(__always) var tracking: Tracking {
    _read { yield unsafe memory.tracking.pointee }
    _modify { yield unsafe &memory.tracking.pointee }
  }

  /// The latest state received and not yet applied, in place. Guarded by ``lock``.
  @inlinable @inline(__always) var pending: State? {
    _read { yield unsafe memory.pending.pointee }
    _modify { yield unsafe &memory.pending.pointee }
  }

  /// The members, found by the identity of their key paths first (a key path literal is one
  /// object for the life of the program), then by key path equality.
  @safe
  @usableFromInline
  struct Tracking {
    /// The identity of each member's key path, in member order.
    @usableFromInline var identities: [ObjectIdentifier] = []
    @usableFromInline var members: [Member] = []
    /// The index of each member, by key path.
    @usableFromInline var indices: [AnyKeyPath: Int] = [:]
    /// Storage for the indices of changed members, used only by ``recordChanges(among:to:)``
    /// and ``changedMember(at:)`` (for ``apply(_:)``, which is never reentered), so that
    /// applying a state allocates nothing.
    @usableFromInline var changed = UnsafeMutablePointer<Int>.allocate(capacity: 0)
    @usableFromInline var changedCapacity = 0
    /// Whether ``ObservedState/apply(_:)`` is running (its observers are being told).
    @usableFromInline var isApplying = false
    /// Called with the key paths of the members each applied state changed (the models'
    /// `explainChanges`); `nil` when nobody asked.
    @usableFromInline var explainChanges: (([AnyKeyPath]) -> Void)?

    @inlinable init() {}

    /// The index of the member whose key path is the object `identity`, if any.
    @inlinable
    func memberIndex(identity: ObjectIdentifier) -> Int? {
      unsafe identities.withUnsafeBufferPointer { identities -> Int? in
        for index in identities.indices where unsafe identities[index] == identity {
          return index
        }
        return nil
      }
    }

    /// The index of the changed member at `position` (below the count that
    /// ``recordChanges(among:to:)`` returned).
    @inlinable
    func changedMember(at position: Int) -> Int { unsafe changed[position] }
  }

  /// Calls `body` with member `index` without retaining it (``tracking`` keeps it).
  @inlinable @inline(__always)
  func withMember<Result>(_ index: Int, _ body: (Member) -> Result) -> Result {
    unsafe Unmanaged.passUnretained(tracking.members[index])._withUnsafeGuaranteedRef(body)
  }

  /// The value at `path` of the current state: read at byte `offset` of the state when it is
  /// not negative (the member's ``Member/offset``), through the key path otherwise.
  @inlinable
  func currentValue<Value>(at path: KeyPath<State, Value>, offset: Int) -> Value {
    if offset >= 0 {
      return unsafe UnsafeRawPointer(memory.current).load(fromByteOffset: offset, as: Value.self)
    }
    return current[keyPath: path]
  }

  /// Records in ``Tracking/changed`` the index of each of `members` whose value differs
  /// between the current state and `newState` (``Member/hasChanged``), and returns how many;
  /// ``Tracking/changedMember(at:)`` reads them back. Main thread only, by ``apply(_:)``.
  @inlinable @inline(__always)
  func recordChanges(among members: [Member], to newState: State) -> Int {
    if tracking.changedCapacity < members.count { growChanged(to: members.count) }
    let changed = unsafe tracking.changed
    var changedCount = 0
    unsafe withUnsafePointer(to: newState) { new in
      let old = unsafe UnsafePointer(memory.current)
      unsafe members.withUnsafeBufferPointer { members in
        for index in members.indices {
          let member = unsafe Unmanaged.passUnretained(members[index])
          if unsafe member._withUnsafeGuaranteedRef({ unsafe $0.hasChanged.test(old, new) }) {
            unsafe changed[changedCount] = index
            changedCount += 1
          }
        }
      }
    }
    return changedCount
  }

  /// Makes room in ``Tracking/changed`` for `capacity` indices.
  @usableFromInline
  func growChanged(to capacity: Int) {
    let capacity = max(capacity, 2 * tracking.changedCapacity)
    unsafe tracking.changed.deallocate()
    unsafe tracking.changed = .allocate(capacity: capacity)
    tracking.changedCapacity = capacity
  }

  /// Whether the value at one key path differs between two states (old, new), compared in
  /// place.
  @safe
  @usableFromInline
  struct ChangeTest {
    @usableFromInline let test: (UnsafePointer<State>, UnsafePointer<State>) -> Bool

    @inlinable
    init(_ test: @escaping (UnsafePointer<State>, UnsafePointer<State>) -> Bool) {
      unsafe self.test = unsafe test
    }

    /// A value that counts as changed in every new state.
    @inlinable
    static var always: ChangeTest { unsafe ChangeTest { _, _ in true } }

    /// `!=` on the values at `path`, specialised for `Value`. A key path made only of stored
    /// properties of structs is read straight from the state's memory, as `Store.slice` does.
    @inlinable
    static func equality<Value: Equatable>(at path: KeyPath<State, Value>) -> ChangeTest {
      if let offset = MemoryLayout<State>.offset(of: path) {
        return unsafe ChangeTest {
          unsafe UnsafeRawPointer($0).load(fromByteOffset: offset, as: Value.self)
            != UnsafeRawPointer($1).load(fromByteOffset: offset, as: Value.self)
        }
      }
      return unsafe ChangeTest { unsafe $0.pointee[keyPath: path] != $1.pointee[keyPath: path] }
    }

    /// The assignment counts of the values at `path` (a ``Pulse``).
    static func updateCount<Value: UpdateCounting>(at path: KeyPath<State, Value>) -> ChangeTest {
      unsafe ChangeTest {
        unsafe $0.pointee[keyPath: path].valueUpdatedCount
          != $1.pointee[keyPath: path].valueUpdatedCount
      }
    }
  }
}
