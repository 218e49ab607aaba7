import Dispatch
import Observation
import ReactorKitStreams

/// The state behind ``ObservedReactor`` and ``ObservedStore``, with property-level
/// observation tracking.
///
/// Each key path of the state that is read through ``read(_:)`` is remembered together with a
/// way to tell whether its value changed between two states: `!=` for `Equatable` values, the
/// assignment count for a ``Pulse``, and "always" for anything else. ``apply(_:)`` tells the
/// registrar about exactly the remembered key paths whose values changed, so an observer that
/// read only `count` is not invalidated by a state in which only `title` changed.
///
/// The object is its own observation subject: each state key path is represented by a key
/// path of this class (``subscript(member:)``), which is what the registrar records. The public
/// models conform to `Observation.Observable` so that SwiftUI accepts them; the registrar they
/// use lives here.
///
/// The per-state and per-read paths are inlinable so that they are specialised for the state
/// type in the module that creates the model.
@MainActor
@usableFromInline
final class ObservedState<State>: Observation.Observable {
  /// Whether the value at one key path differs between two states (old, new).
  @usableFromInline
  typealias ChangeTest = (UnsafePointer<State>, UnsafePointer<State>) -> Bool

  /// A remembered state key path.
  @usableFromInline
  struct Member {
    /// The key path the registrar records for the state key path.
    @usableFromInline let key: KeyPath<ObservedState, Void>
    /// Whether the value at the state key path differs between two states.
    @usableFromInline let hasChanged: ChangeTest

    @usableFromInline
    init(key: KeyPath<ObservedState, Void>, hasChanged: @escaping ChangeTest) {
      self.key = key
      self.hasChanged = hasChanged
    }
  }

  /// The latest state applied.
  @usableFromInline var state: State
  @usableFromInline var members: [AnyKeyPath: Member] = [:]
  @usableFromInline let registrar = ObservationRegistrar()
  /// Storage reused by ``apply(_:)`` for the keys of changed members, so that applying a state
  /// allocates nothing.
  @usableFromInline var changedKeys: [KeyPath<ObservedState, Void>] = []

  @inlinable
  init(_ state: State) {
    self.state = state
  }

  /// The observation identity of a state key path; the value is meaningless.
  nonisolated subscript(member path: AnyKeyPath) -> Void {
    ()
  }

  /// The number of state key paths remembered so far (for tests).
  var memberCount: Int { members.count }

  /// Reads the value at `path` of the current state and records the access for observation
  /// tracking.
  @inlinable
  func read<Value>(_ path: KeyPath<State, Value>) -> Value {
    let member = members[path] ?? remember(path, hasChanged: Self.changeTest(for: path))
    registrar.access(self, keyPath: member.key)
    return state[keyPath: path]
  }

  /// Reads the value at `path` like ``read(_:)``, comparing values with a `!=` that is
  /// specialised for `Value` where the caller knows it is `Equatable`.
  @inlinable
  func read<Value: Equatable>(_ path: KeyPath<State, Value>) -> Value {
    let member = members[path] ?? remember(path, hasChanged: Self.equalityTest(for: path))
    registrar.access(self, keyPath: member.key)
    return state[keyPath: path]
  }

  /// Makes `newState` the current state, announcing a change of each remembered key path
  /// whose value differs.
  ///
  /// Observers are told before and after the state is replaced (`willSet` / `didSet`), like
  /// properties of an `@Observable` class; during `willSet` the model still shows the old
  /// state. Observers may read the model and send actions; they must not call `apply`.
  @inlinable
  func apply(_ newState: State) {
    let oldState = state
    var changed = changedKeys
    changedKeys = []
    defer {
      changed.removeAll(keepingCapacity: true)
      changedKeys = changed
    }
    Self.collectChanges(of: members, from: oldState, to: newState, into: &changed)
    guard !changed.isEmpty else {
      state = newState
      return
    }
    for key in changed { registrar.willSet(self, keyPath: key) }
    state = newState
    for key in changed { registrar.didSet(self, keyPath: key) }
  }

  /// Appends to `changed` the key of each member whose value differs between `old` and `new`.
  ///
  /// Nonisolated, so that the closures it passes to `withUnsafePointer` carry no main-actor
  /// isolation check; it is only called from ``apply(_:)``.
  @inlinable
  nonisolated static func collectChanges(
    of members: [AnyKeyPath: Member], from old: State, to new: State,
    into changed: inout [KeyPath<ObservedState, Void>]
  ) {
    withUnsafePointer(to: old) { old in
      withUnsafePointer(to: new) { new in
        for member in members.values where member.hasChanged(old, new) {
          changed.append(member.key)
        }
      }
    }
  }

  /// Remembers `path`, the first time it is read.
  @usableFromInline
  func remember(_ path: AnyKeyPath, hasChanged: @escaping ChangeTest) -> Member {
    let member = Member(key: \ObservedState[member: path], hasChanged: hasChanged)
    members[path] = member
    return member
  }

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

  private static func equalityChangeTest<Value: Equatable, Member>(
    _: Value.Type, _ path: KeyPath<State, Member>
  ) -> ChangeTest {
    // `Value` is `Member`, opened from its metatype.
    equalityTest(for: path as! KeyPath<State, Value>)
  }

  private static func countChangeTest<Value: UpdateCounting, Member>(
    _: Value.Type, _ path: KeyPath<State, Member>
  ) -> ChangeTest {
    // `Value` is `Member`, opened from its metatype.
    let path = path as! KeyPath<State, Value>
    return {
      $0.pointee[keyPath: path].valueUpdatedCount != $1.pointee[keyPath: path].valueUpdatedCount
    }
  }

  /// Subscribes to `states` and applies them on the main actor; see ``StateInbox``.
  ///
  /// - Returns: The subscription. It holds this object weakly.
  @inlinable
  func follow(_ states: ReactorKitStreams.Observable<State>) -> Disposable {
    let inbox = StateInbox(self)
    return states.subscribe(onNext: { inbox.receive($0) })
  }
}

/// A value whose assignments are counted, so that a new assignment of an equal value still
/// counts as a change (``Pulse``).
protocol UpdateCounting {
  var valueUpdatedCount: UInt { get }
}

extension Pulse: UpdateCounting {}

/// Carries states from the thread that produces them to the main actor, keeping only the
/// latest one not yet applied.
///
/// A state that arrives on the main thread while nothing is pending is applied at once, before
/// `receive` returns. Otherwise it becomes the pending state and one drain on the main queue
/// applies whatever is pending when it runs, so a burst from another thread costs one hop and
/// the model never shows an older state after a newer one. States that arrive while a state is
/// being applied (from an observer) are applied after it, in the same drain.
@usableFromInline
final class StateInbox<State>: @unchecked Sendable {
  // Safety: `pending` and `isDraining` are guarded by `lock`. `target` is a weak reference
  // written only in `init`; it is dereferenced only on the main actor.
  @usableFromInline let lock = Lock()
  @usableFromInline var pending: State?
  @usableFromInline var isDraining = false
  @usableFromInline weak var target: ObservedState<State>?

  @inlinable
  init(_ target: ObservedState<State>) {
    self.target = target
  }

  /// Takes a new state, on any thread.
  @inlinable
  func receive(_ state: State) {
    lock.lock()
    pending = state
    if isDraining {
      lock.unlock()
      return
    }
    isDraining = true
    lock.unlock()
    if MainScheduler.isMainThread {
      drain()
    } else {
      DispatchQueue.main.async { self.drain() }
    }
  }

  /// Applies pending states until none is left. Runs on the main thread.
  @inlinable
  func drain() {
    MainActor.assumeIsolated {
      while let state = takePending() {
        // Each state is taken from `pending` under the lock, so only this drain uses it.
        if let target { target.apply(state) }
      }
    }
  }

  /// The pending state, or `nil` after marking the drain finished when there is none.
  @inlinable
  func takePending() -> State? {
    lock.lock()
    defer { lock.unlock() }
    guard let state = pending.take() else {
      isDraining = false
      return nil
    }
    return state
  }
}
