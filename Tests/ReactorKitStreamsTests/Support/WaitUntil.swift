import Dispatch
import Foundation
import ReactorKitTesting
import XCTest

extension XCTestCase {
  /// Runs the current run loop (and so the main queue) until `condition` holds, failing the
  /// test after `timeout` seconds.
  func waitUntil(
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
}

extension XCTestCase {
  /// Lets the main queue run until work queued on it by earlier tests (and the work that
  /// work queues) is done, so `MainScheduler.instance` runs at once again.
  func drainMainQueue(file: StaticString = #filePath, line: UInt = #line) {
    for _ in 0..<3 {
      let drained = LockedValues<Bool>()
      DispatchQueue.main.async { drained.append(true) }
      waitUntil(file: file, line: line) { !drained.all.isEmpty }
    }
  }
}
