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
@MainActor
final class ObservedState<State>: Observation.Observable {
  /// A remembered state key path.
  private struct Member {
    /// The key path the registrar records for the state key path.
    let key: KeyPath<ObservedState, Void>
    /// Whether the value at the state key path differs between two states.
    let hasChanged: (State, State) -> Bool
  }

  /// The latest state applied.
  private(set) var state: State
  private var members: [AnyKeyPath: Member] = [:]
  private let registrar = ObservationRegistrar()

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
  func read<Value>(_ path: KeyPath<State, Value>) -> Value {
    let member = members[path] ?? remember(path)
    registrar.access(self, keyPath: member.key)
    return state[keyPath: path]
  }

  /// Makes `newState` the current state, announcing a change of each remembered key path
  /// whose value differs.
  ///
  /// Observers are told before and after the state is replaced (`willSet` / `didSet`), like
  /// properties of an `@Observable` class; during `willSet` the model still shows the old
  /// state. Observers may read the model and send actions; they must not call `apply`.
  func apply(_ newState: State) {
    let oldState = state
    var changed: [KeyPath<ObservedState, Void>] = []
    for member in members.values where member.hasChanged(oldState, newState) {
      changed.append(member.key)
    }
    guard !changed.isEmpty else {
      state = newState
      return
    }
    for key in changed { registrar.willSet(self, keyPath: key) }
    state = newState
    for key in changed { registrar.didSet(self, keyPath: key) }
  }

  private func remember<Value>(_ path: KeyPath<State, Value>) -> Member {
    let member = Member(key: \ObservedState[member: path], hasChanged: Self.changeTest(for: path))
    members[path] = member
    return member
  }

  /// How to tell whether the value at `path` changed, decided once per key path.
  private static func changeTest<Value>(for path: KeyPath<State, Value>) -> (State, State) -> Bool {
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
  ) -> (State, State) -> Bool {
    // `Value` is `Member`, opened from its metatype.
    let path = path as! KeyPath<State, Value>
    return { $0[keyPath: path] != $1[keyPath: path] }
  }

  private static func countChangeTest<Value: UpdateCounting, Member>(
    _: Value.Type, _ path: KeyPath<State, Member>
  ) -> (State, State) -> Bool {
    // `Value` is `Member`, opened from its metatype.
    let path = path as! KeyPath<State, Value>
    return { $0[keyPath: path].valueUpdatedCount != $1[keyPath: path].valueUpdatedCount }
  }

  /// Subscribes to `states` and applies them on the main actor; see ``StateInbox``.
  ///
  /// - Returns: The subscription. It holds this object weakly.
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
final class StateInbox<State>: @unchecked Sendable {
  // Safety: `pending` and `isDraining` are guarded by `lock`. `target` is a weak reference
  // written only in `init`; it is dereferenced only on the main actor.
  private let lock = Lock()
  private var pending: State?
  private var isDraining = false
  private weak var target: ObservedState<State>?

  init(_ target: ObservedState<State>) {
    self.target = target
  }

  /// Takes a new state, on any thread.
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
  private func drain() {
    while true {
      lock.lock()
      guard let state = pending.take() else {
        isDraining = false
        lock.unlock()
        return
      }
      lock.unlock()
      let delivery = UncheckedSendable(state)
      MainActor.assumeIsolated {
        target?.apply(delivery.value)
      }
    }
  }
}
