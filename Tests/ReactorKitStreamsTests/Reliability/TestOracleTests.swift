import Foundation
import ReactorKitTesting
import XCTest

/// The helpers that other tests rely on to fail instead of hanging must themselves fail.
final class TestOracleTests: XCTestCase {
  func test_runConcurrently_threadsThatNeverFinish_reportATimeout() {
    // given: two threads blocked until the test lets them go
    let release = DispatchSemaphore(value: 0)
    // when
    let finished = runConcurrentlyWithin(0.3, threads: 2) { _ in release.wait() }
    // then
    XCTAssertFalse(finished, "a deadlock must be reported, not waited out")
    release.signal()
    release.signal()
  }

  func test_runConcurrently_threadsThatFinish_areReportedFinished() {
    XCTAssertTrue(runConcurrentlyWithin(30, threads: 3) { _ in sched_yield() })
  }

  func test_runConcurrently_defaultTimeout_isTheDocumentedCapScaledByStress() {
    XCTAssertEqual(defaultConcurrencyTimeout, 120 * Double(StressConfiguration.multiplier))
  }
}
