import Foundation
import ReactorKitStreams

/// Counts how many threads are inside a critical section at once.
final class OverlapDetector: Sendable {
  private let inside = AtomicBox<Int>(0)
  private let maximum = AtomicBox<Int>(0)

  /// The largest number of threads seen inside at the same time.
  var maximumOverlap: Int { maximum.load(ordering: .acquiring) }

  /// Runs `body` as one visit of the critical section.
  func visit<T>(_ body: () -> T) -> T {
    let now = inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
    var seen = maximum.load(ordering: .relaxed)
    while now > seen {
      let (exchanged, original) = maximum.compareExchange(
        expected: seen, desired: now, ordering: .acquiringAndReleasing)
      if exchanged { break }
      seen = original
    }
    defer { inside.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
    return body()
  }
}

/// A value guarded by a lock, for tests that collect results from several threads.
final class Locked<Value>: @unchecked Sendable {
  // Safety: `value` is only touched inside `lock`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }

  var current: Value { withLock { $0 } }
}
