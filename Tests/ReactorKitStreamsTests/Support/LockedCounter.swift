import Foundation

/// A counter guarded by a lock, for checking that deliveries never overlap.
final class LockedCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    value += 1
    return value
  }
  func decrement() {
    lock.lock()
    value -= 1
    lock.unlock()
  }
}
