import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKitStreams

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Many threads queue work to an engine that follows the ``Gate`` protocol; nothing may be
/// lost, nothing processed twice, and no two threads may hold the gate at once.
///
/// Each step matters: replacing ``Gate/tryRelease()`` by an unconditional release, or
/// ``Gate/claimOrAnnounceLocked()`` by one that claims only an idle gate (never announcing),
/// strands queued work and fails `test_gate_concurrentProducers_loseNothing`.
final class GateStressTests: XCTestCase {
  func test_gate_concurrentProducers_loseNothing() {
    // Many short rounds: work stranded by a faulty release stays stranded only when no later
    // send comes along to pick it up, i.e. at the end of a round.
    for round in 0..<StressRounds.count * 10 {
      // given
      let engine = GateEngine()
      let threads = 4
      let perThread = 8
      // when: every thread sends items, every other one (and the last) through the unlocked
      // fast path, which never looks at the queue
      runConcurrently(threads: threads) { thread in
        for index in 0..<perThread {
          engine.send(thread * perThread + index, fast: index % 2 == 1)
        }
      }
      // then
      let allProcessed = eventually(timeout: 2) { engine.processedCount == threads * perThread }
      XCTAssertTrue(
        allProcessed,
        "round \(round): processed \(engine.processedCount) of \(threads * perThread), "
          + "\(engine.queuedCount) stranded in the queue, gate \(engine.gate.state)")
      XCTAssertEqual(engine.overlaps, 0, "round \(round): two holders at once")
      XCTAssertEqual(engine.duplicates, 0, "round \(round): an item was processed twice")
      XCTAssertEqual(engine.stranded, 0, "round \(round): an idle gate left work queued")
      XCTAssertTrue(eventually { engine.gate.isIdle }, "round \(round): gate \(engine.gate.state)")
      if !allProcessed || engine.stranded != 0 { return }
    }
  }

  func test_gate_closeStopsClaimsWhileHeld() {
    for round in 0..<StressRounds.count {
      // given
      let engine = GateEngine()
      let closeAfter = StressRounds.itemsPerThread / 2
      // when: one thread closes the engine while the others send
      runConcurrently(threads: 3) { thread in
        if thread == 0 {
          XCTAssertTrue(
            spinUntil { engine.processedCount >= closeAfter },
            "waited 10 s for: engine.processedCount >= closeAfter")
          engine.close()
          return
        }
        for index in 0..<StressRounds.itemsPerThread {
          engine.send(thread * StressRounds.itemsPerThread + index, fast: index % 2 == 0)
        }
      }
      // then: the gate ends closed and nobody holds it
      XCTAssertTrue(
        eventually { engine.gate.state == Gate.State(bits: Gate.closed) },
        "round \(round): gate \(engine.gate.state)")
      XCTAssertEqual(engine.overlaps, 0, "round \(round): two holders at once")
      XCTAssertEqual(engine.duplicates, 0, "round \(round): an item was processed twice")
    }
  }
}

/// Whether `condition` holds within `timeout` seconds (polling, without running the run loop).
private func eventually(timeout: TimeInterval = 10, _ condition: () -> Bool) -> Bool {
  let deadline = Date().addingTimeInterval(timeout)
  while !condition() {
    if Date() >= deadline { return false }
    usleep(100)
  }
  return true
}

private enum StressRounds {
  static var count: Int { 20 }
  static var itemsPerThread: Int { 400 }
}

/// A minimal engine in the shape of the package's four: a lock-guarded queue, a gate, a fast
/// path that processes at once when the gate is idle.
private final class GateEngine: @unchecked Sendable {
  // Safety: `queue`, `isClosed`, `seen` and `strandedCount` are guarded by `lock`; `gate`, `inside`,
  // `overlapCount`, `duplicateCount` and `processed` are atomic.
  let lock = NSLock()
  var queue: [Int] = []
  var isClosed = false
  var seen = Set<Int>()
  /// Times a sender claimed an idle gate and found older work in the queue.
  var strandedCount = 0
  private let gateWord = AtomicBox<UInt>(0)
  private let inside = AtomicBox<Int>(0)
  private let overlapCount = AtomicBox<Int>(0)
  private let duplicateCount = AtomicBox<Int>(0)
  private let processed = AtomicBox<Int>(0)

  var gate: Gate { Gate(gateWord.atomic) }
  var processedCount: Int { processed.load(ordering: .acquiring) }
  var overlaps: Int { overlapCount.load(ordering: .acquiring) }
  var duplicates: Int { duplicateCount.load(ordering: .acquiring) }
  var stranded: Int {
    lock.lock()
    defer { lock.unlock() }
    return strandedCount
  }
  var queuedCount: Int {
    lock.lock()
    defer { lock.unlock() }
    return queue.count
  }

  func send(_ item: Int, fast: Bool) {
    if fast, gate.tryClaim() {
      // The holder: process at once, then leave (or drain what was announced meanwhile).
      process([item])
      if !gate.tryRelease() { drainAndUnlock(lockFirst: true) }
      return
    }
    lock.lock()
    if isClosed {
      lock.unlock()
      return
    }
    queue.append(item)
    switch gate.claimOrAnnounceLocked() {
    case .claimed:
      // An idle gate means a drained queue: anything else was queued, announced, and left
      // behind by a holder that released anyway.
      if queue.count != 1 { strandedCount += 1 }
      drainAndUnlock(lockFirst: false)
    case .announced, .closed:
      lock.unlock()
    }
  }

  func close() {
    lock.lock()
    isClosed = true
    gate.close()
    lock.unlock()
  }

  /// The holder drains the queue until a release succeeds.
  private func drainAndUnlock(lockFirst: Bool) {
    if lockFirst { lock.lock() }
    while true {
      if isClosed {
        queue.removeAll()
        gate.releaseLocked()
        lock.unlock()
        return
      }
      gate.clearAnnouncementLocked()
      let items = queue
      queue.removeAll()
      lock.unlock()
      process(items)
      if gate.tryRelease() { return }
      lock.lock()
    }
  }

  private func process(_ items: [Int]) {
    guard !items.isEmpty else { return }
    if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
      overlapCount.wrappingAdd(1, ordering: .relaxed)
    }
    // Widen the window between the holder's last look at the queue and its release.
    sched_yield()
    lock.lock()
    for item in items where !seen.insert(item).inserted {
      duplicateCount.wrappingAdd(1, ordering: .relaxed)
    }
    lock.unlock()
    inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    processed.wrappingAdd(items.count, ordering: .acquiringAndReleasing)
  }
}
