import Foundation
import ReactorKitStreams
import XCTest

/// A test case that fails when a test leaves stream resources alive.
///
/// Records ``Resources/total`` before each test and checks it is back at the start value
/// after the test's own objects are gone. Tests create everything inside the test method so
/// it is freed before `tearDown`.
open class ResourceTestCase: XCTestCase {
  private var startTotal = 0

  /// How long `tearDown` waits for other threads to release their last references.
  open var resourceSettleTimeout: TimeInterval { 2 }

  open override func setUp() {
    super.setUp()
    startTotal = Resources.total
  }

  open override func tearDown() {
    // Other threads may still be releasing their last references; give them a moment.
    let deadline = Date().addingTimeInterval(resourceSettleTimeout)
    while Resources.total != startTotal && Date() < deadline {
      RunLoop.current.run(until: Date().addingTimeInterval(0.01))
    }
    XCTAssertEqual(
      Resources.total, startTotal, "Stream resources leaked: \(Resources.total - startTotal)")
    super.tearDown()
  }
}
