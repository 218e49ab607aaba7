import Foundation
import ReactorKitReSwift

// MARK: - States

struct CounterState: Equatable {
  var value: Int?
  var label = "initial"
}

struct NamedState: Equatable {
  var name = "Ada"
  var age = 36
}

/// A state whose part compares by a custom rule only.
struct BoxedState {
  struct Box { var value: Int }
  var box: Box
}

/// A state that is not `Equatable`, holding a part that is.
struct OpaqueState {
  var text = "initial"
  var opaque = Opaque()
}

/// Not `Equatable`.
struct Opaque { var text = "initial" }

// MARK: - Actions

struct SetValue: Action, Equatable {
  var value: Int?
  init(_ value: Int?) { self.value = value }
}

struct SetLabel: Action, Equatable {
  var label: String
  init(_ label: String) { self.label = label }
}

struct SetAge: Action { var age: Int }
struct SetBox: Action { var value: Int }
struct SetOpaque: Action { var opaque: Opaque }
struct SetText: Action { var text: String }
struct Noop: Action {}
struct Increment: Action {}

// MARK: - Reducers

func counterReducer(action: Action, state: CounterState?) -> CounterState {
  var state = state ?? CounterState()
  switch action {
  case let action as SetValue: state.value = action.value
  case let action as SetLabel: state.label = action.label
  case is Increment: state.value = (state.value ?? 0) + 1
  default: break
  }
  return state
}

func namedReducer(action: Action, state: NamedState?) -> NamedState {
  var state = state ?? NamedState()
  if let action = action as? SetAge { state.age = action.age }
  return state
}

func boxedReducer(action: Action, state: BoxedState?) -> BoxedState {
  var state = state ?? BoxedState(box: .init(value: 0))
  if let action = action as? SetBox { state.box = .init(value: action.value) }
  return state
}

func opaqueReducer(action: Action, state: OpaqueState?) -> OpaqueState {
  var state = state ?? OpaqueState()
  switch action {
  case let action as SetOpaque: state.opaque = action.opaque
  case let action as SetText: state.text = action.text
  default: break
  }
  return state
}

// MARK: - Subscribers

/// Records every state it receives.
final class Recorder<Value>: StoreSubscriber, @unchecked Sendable {
  // Safety: the store calls `newState` serially; tests read after the store is idle or under
  // `lock`.
  private let lock = NSLock()
  private var values: [Value] = []

  var received: [Value] { lock.withLock { values } }
  var count: Int { lock.withLock { values.count } }
  var last: Value? { lock.withLock { values.last } }

  func newState(state: Value) {
    lock.withLock { values.append(state) }
  }
}

/// Calls a closure with every state.
final class ClosureSubscriber<Value>: StoreSubscriber {
  private let body: (Value) -> Void
  init(_ body: @escaping (Value) -> Void) { self.body = body }
  func newState(state: Value) { body(state) }
}

/// Records whether an object was freed.
final class DeinitProbe: @unchecked Sendable {
  // Safety: written once in the observed object's `deinit`; read by the test afterwards.
  var isFreed = false
}

/// A subscriber that reports its own deallocation.
final class ReleasedSubscriber: StoreSubscriber {
  let probe: DeinitProbe
  init(probe: DeinitProbe) { self.probe = probe }
  deinit { probe.isFreed = true }
  func newState(state: CounterState) {}
}
