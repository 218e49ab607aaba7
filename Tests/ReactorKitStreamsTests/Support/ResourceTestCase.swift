import ReactorKitStreams
import XCTest

/// A test case that fails when a test leaves stream resources alive.
///
/// Records ``Resources/total`` before each test and checks it is back at the start value
/// after the test's own objects are gone. Tests create everything inside the test method so
/// it is freed before `tearDown`.
class ResourceTestCase: XCTestCase {
  private var startTotal = 0

  override func setUp() {
    super.setUp()
    startTotal = Resources.total
  }

  override func tearDown() {
    // Other threads may still be releasing their last references; give them a moment.
    let deadline = Date().addingTimeInterval(2)
    while Resources.total != startTotal && Date() < deadline {
      RunLoop.current.run(until: Date().addingTimeInterval(0.01))
    }
    XCTAssertEqual(
      Resources.total, startTotal, "Stream resources leaked: \(Resources.total - startTotal)")
    super.tearDown()
  }
}

/// A plain error for tests.
struct TestError: Error, Equatable {
  let id: Int
  init(_ id: Int = 0) { self.id = id }
}
