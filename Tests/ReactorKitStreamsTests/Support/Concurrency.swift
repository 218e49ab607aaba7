import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body(index)` on `threads` dedicated threads that start together behind a spin
/// barrier, and returns once all of them finished; fails the test when they have not after
/// `timeout` seconds (120 s by default, times `StressConfiguration.multiplier`), so a deadlock
/// fails instead of hanging.
///
/// Dedicated threads (not `concurrentPerform`, which uses one thread per core) make the
/// bodies really overlap on a 2-core machine.
func runConcurrently(
  threads: Int, timeout: TimeInterval = defaultConcurrencyTimeout,
  file: StaticString = #filePath, line: UInt = #line,
  _ body: @escaping @Sendable (Int) -> Void
) {
  guard runConcurrentlyWithin(timeout, threads: threads, body) else {
    XCTFail(
      "runConcurrently: the \(threads) threads did not finish within \(timeout) s (deadlock?)",
      file: file, line: line)
    return
  }
}

/// The cap of ``runConcurrently(threads:timeout:file:line:_:)``: 120 s, scaled like the
/// stress tests' iterations.
var defaultConcurrencyTimeout: TimeInterval { 120 * Double(StressConfiguration.multiplier) }

/// Runs `body(index)` on `threads` dedicated threads behind a spin barrier.
///
/// - Returns: Whether all of them finished within `timeout` seconds (the others are left
///   running).
func runConcurrentlyWithin(
  _ timeout: TimeInterval, threads: Int, _ body: @escaping @Sendable (Int) -> Void
) -> Bool {
  let barrier = SpinBarrier(count: threads)
  let group = DispatchGroup()
  for index in 0..<threads {
    group.enter()
    let thread = Thread {
      barrier.arriveAndWait()
      body(index)
      group.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  return group.wait(timeout: .now() + timeout) == .success
}

/// Lets a fixed number of threads start work at the same moment.
final class SpinBarrier: Sendable {
  private let arrived = AtomicBox<Int>(0)
  private let count: Int

  init(count: Int) { self.count = count }

  func arriveAndWait() {
    arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
    while arrived.load(ordering: .acquiring) < count { sched_yield() }
  }
}

/// Detects overlapping deliveries: call ``enter()`` when an observer starts handling an
/// event and ``leave()`` when it is done; ``overlaps`` counts entries that found another
/// delivery in progress.
final class DeliveryProbe: Sendable {
  private let inside = AtomicBox<Int>(0)
  private let overlapCount = AtomicBox<Int>(0)
  private let deliveries = AtomicBox<Int>(0)

  /// Entries that found another delivery in progress.
  var overlaps: Int { overlapCount.load(ordering: .acquiring) }

  /// All entries.
  var count: Int { deliveries.load(ordering: .acquiring) }

  func enter() {
    deliveries.wrappingAdd(1, ordering: .relaxed)
    if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
      overlapCount.wrappingAdd(1, ordering: .relaxed)
    }
    // Widen the window in which an unserialised producer would overlap.
    sched_yield()
  }

  func leave() {
    inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
  }
}
