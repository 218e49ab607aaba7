import Foundation
import ReactorKitTesting
import XCTest

/// The package's shared thread helpers: they must really run every body, and fail (not hang)
/// when a body does not finish.
final class ConcurrentTestingTests: XCTestCase {
  func testRunConcurrentlyRunsEveryIndexOnceOnItsOwnThread() {
    let seen = LockedValues<Int>()
    runConcurrently(threads: 6) { index in seen.append(index) }
    XCTAssertEqual(seen.all.sorted(), Array(0..<6))
  }

  func testRunConcurrentlyWithinReportsABodyThatDoesNotFinish() {
    let release = DispatchSemaphore(value: 0)
    let started = Date()
    let finished = runConcurrentlyWithin(0.2, threads: 2) { index in
      if index == 1 { _ = release.wait(timeout: .now() + 10) }
    }
    XCTAssertFalse(finished)
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    release.signal()
  }

  func testWaitUntilReturnsWhenTheConditionHoldsAndGivesUpAtTheTimeout() {
    let flag = LockedValues<Bool>()
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { flag.append(true) }
    XCTAssertTrue(waitUntil(timeout: 10) { !flag.all.isEmpty })

    let started = Date()
    XCTAssertFalse(waitUntil(timeout: 0.1) { false })
    XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.1)
  }

  func testSpinUntilReturnsWhenTheConditionHoldsAndGivesUpAtTheTimeout() {
    // A stress thread that waits for a broken store must stop spinning, not hang the run.
    let flag = LockedValues<Bool>()
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { flag.append(true) }
    XCTAssertTrue(spinUntil(timeout: 10) { !flag.all.isEmpty })

    let started = Date()
    XCTAssertFalse(spinUntil(timeout: 0.1) { false })
    let elapsed = Date().timeIntervalSince(started)
    XCTAssertGreaterThanOrEqual(elapsed, 0.1)
    XCTAssertLessThan(elapsed, 5)
  }

  func testSeededGeneratorsRepeatTheirSequence() {
    var first = SeededRandomNumberGenerator(seed: 42)
    var second = SeededRandomNumberGenerator(seed: 42)
    var other = SeededRandomNumberGenerator(seed: 43)
    let a = (0..<8).map { _ in first.next() }
    let b = (0..<8).map { _ in second.next() }
    let c = (0..<8).map { _ in other.next() }
    XCTAssertEqual(a, b)
    XCTAssertNotEqual(a, c)
    XCTAssertEqual(Set(a).count, 8)
  }
}
