import Foundation
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
