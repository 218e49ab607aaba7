import Foundation
import ReactorKit

/// Actions of the counter used across the store tests.
enum StoreCounterAction: Action, Equatable {
  case increment
  case add(Int)
  case reset
}

/// A second action type, to check reducers and middleware that handle one type only.
struct StoreLogAction: Action, Equatable {
  var text: String
}

/// A state with a counter and a log of what the reducer saw.
struct StoreCounterState: Equatable {
  var count = 0
  var log: [String] = []
}

/// Applies ``StoreCounterAction`` and ``StoreLogAction`` to a ``StoreCounterState``.
var storeCounterReducer: Reducer<StoreCounterState> {
  Reducer { state, action in
    switch action {
    case StoreCounterAction.increment: state.count += 1
    case StoreCounterAction.add(let amount): state.count += amount
    case StoreCounterAction.reset: state.count = 0
    case let action as StoreLogAction: state.log.append(action.text)
    default: break
    }
  }
}

/// A short, stable description of an action for ordering assertions.
func describeStoreAction(_ action: any Action) -> String {
  switch action {
  case StoreCounterAction.increment: return "increment"
  case StoreCounterAction.add(let amount): return "add(\(amount))"
  case StoreCounterAction.reset: return "reset"
  case let action as StoreLogAction: return "log(\(action.text))"
  default: return String(describing: action)
  }
}

/// A value that can be shared with other threads in tests, guarded by a lock.
final class StoreLockedBox<Value>: @unchecked Sendable {
  // Safety: `value` is only touched with `lock` held.
  private let lock = NSLock()
  private var value: Value
  private var kept: [Any] = []

  init(_ value: Value) { self.value = value }

  /// Keeps `object` alive as long as the box.
  func keep(_ object: Any) {
    lock.lock()
    kept.append(object)
    lock.unlock()
  }

  func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }

  var current: Value { withLock { $0 } }
}
