import Foundation

/// A thread-safe array for collecting values from other threads in tests.
final class LockedValues<Value>: @unchecked Sendable {
  // Safety: `values` is guarded by `lock`.
  private let lock = NSLock()
  private var values: [Value] = []

  /// Appends `value` and returns the new count.
  @discardableResult
  func append(_ value: Value) -> Int {
    lock.lock()
    defer { lock.unlock() }
    values.append(value)
    return values.count
  }

  /// A copy of the values so far.
  var all: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return values
  }
}
