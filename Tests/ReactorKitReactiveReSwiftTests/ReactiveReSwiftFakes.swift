import Foundation
import ReactorKitReactiveReSwift

struct CounterState: Equatable {
  var count = 0
}

struct ValueState: Equatable {
  var value: Int?
}

struct TextState: Equatable {
  var text: String?
}

struct Noop: Action {}

struct SetValue: StandardActionConvertible, Equatable {
  static let type = "SetValue"
  let value: Int

  init(_ value: Int) { self.value = value }

  init(_ standardAction: StandardAction) {
    value = standardAction.payload?["value"] as? Int ?? 0
  }

  func toStandardAction() -> StandardAction {
    StandardAction(type: Self.type, payload: ["value": value as AnyObject], isTypedAction: true)
  }
}

struct SetText: StandardActionConvertible, Equatable {
  static let type = "SetText"
  var text: String

  init(_ text: String) { self.text = text }

  init(_ standardAction: StandardAction) {
    text = standardAction.payload?["text"] as? String ?? ""
  }

  func toStandardAction() -> StandardAction {
    StandardAction(type: Self.type, payload: ["text": text as AnyObject], isTypedAction: true)
  }
}

func valueReducer() -> Reducer<ValueState> {
  { action, state in
    guard let action = action as? SetValue else { return state }
    return ValueState(value: action.value)
  }
}

func textReducer() -> Reducer<TextState> {
  { action, state in
    guard let action = action as? SetText else { return state }
    return TextState(text: action.text)
  }
}

func increaseBy(_ amount: Int) -> Reducer<CounterState> {
  { _, state in CounterState(count: state.count + amount) }
}

/// A value shared between threads in a test, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  // Safety: `stored` is only touched with `lock` held.
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
  func update<T>(_ body: (inout Value) -> T) -> T { lock.withLock { body(&stored) } }
}

/// A value handed to another thread in a test.
final class UncheckedBox<Value>: @unchecked Sendable {
  // Safety: used by one thread at a time in these tests.
  let value: Value
  init(_ value: Value) { self.value = value }
}
