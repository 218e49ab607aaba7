import Foundation
import ReactorKitStreams
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Thread helpers shared by the package's test targets (`package`: not API of the product).

/// Runs `body(index)` on `threads` dedicated threads that start together behind a spin
/// barrier, and returns once all of them finished; fails the test when they have not after
/// `timeout` seconds (120 s by default, times `StressConfiguration.multiplier`), so a deadlock
/// fails instead of hanging.
///
/// Dedicated threads (not `concurrentPerform`, which uses one thread per core) make the
/// bodies really overlap on a 2-core machine.
package func runConcurrently(
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
package var defaultConcurrencyTimeout: TimeInterval { 120 * Double(StressConfiguration.multiplier) }

/// Runs `body(index)` on `threads` dedicated threads behind a spin barrier.
///
/// - Returns: Whether all of them finished within `timeout` seconds (the others are left
///   running).
package func runConcurrentlyWithin(
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
package final class SpinBarrier: Sendable {
  private let arrived = AtomicBox<Int>(0)
  private let count: Int

  package init(count: Int) { self.count = count }

  package func arriveAndWait() {
    arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
    while arrived.load(ordering: .acquiring) < count { sched_yield() }
  }
}

/// Polls `condition` until it holds or `timeout` seconds passed, without running the run
/// loop.
///
/// - Returns: Whether `condition` held.
package func waitUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() > deadline { return false }
    usleep(500)
  }
  return true
}

/// Spins (yielding the processor) until `condition` holds or `timeout` seconds passed: for a
/// thread in a stress test that waits for the others without sleeping. A loop that waits for
/// the code under test must end even when that code is broken, so use this instead of a bare
/// `while !condition { sched_yield() }`.
///
/// - Returns: Whether `condition` held.
package func spinUntil(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
  let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, timeout) * 1e9)
  var spins = 0
  while !condition() {
    spins &+= 1
    if spins % 64 == 0, DispatchTime.now().uptimeNanoseconds > deadline { return false }
    sched_yield()
  }
  return true
}

/// A thread-safe array for collecting values from other threads in tests.
package final class LockedValues<Value>: @unchecked Sendable {
  // Safety: `values` is guarded by `lock`.
  private let lock = NSLock()
  private var values: [Value] = []

  package init() {}

  /// Appends `value` and returns the new count.
  @discardableResult
  package func append(_ value: Value) -> Int {
    lock.lock()
    defer { lock.unlock() }
    values.append(value)
    return values.count
  }

  /// A copy of the values so far.
  package var all: [Value] {
    lock.lock()
    defer { lock.unlock() }
    return values
  }
}

extension XCTestCase {
  /// Runs the current run loop (and so the main queue) until `condition` holds, failing the
  /// test after `timeout` seconds. Unlike ``waitUntil(timeout:_:)``, which only polls, this
  /// lets main-queue work (a `MainScheduler` delivery, a `Driver`) happen meanwhile; call it on
  /// the main thread.
  package func runMainLoopUntil(
    timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
    _ condition: () -> Bool
  ) {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
      guard Date() < deadline else {
        XCTFail("Condition not met within \(timeout) s", file: file, line: line)
        return
      }
      RunLoop.current.run(until: Date().addingTimeInterval(0.002))
    }
  }

  /// Lets the main queue run until work queued on it by earlier tests (and the work that
  /// work queues) is done, so `MainScheduler.instance` runs at once again.
  package func drainMainQueue(file: StaticString = #filePath, line: UInt = #line) {
    for _ in 0..<3 {
      let drained = LockedValues<Bool>()
      DispatchQueue.main.async { drained.append(true) }
      runMainLoopUntil(file: file, line: line) { !drained.all.isEmpty }
    }
  }
}
