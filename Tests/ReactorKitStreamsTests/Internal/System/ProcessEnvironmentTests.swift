import Foundation
import XCTest

@testable import ReactorKitStreams

final class ProcessEnvironmentTests: XCTestCase {
  func test_value_readsTheEnvironment() {
    // given: a variable every test run has
    let path = ProcessInfo.processInfo.environment["PATH"]
    XCTAssertNotNil(path)
    // then
    XCTAssertEqual(ProcessEnvironment.value(of: "PATH"), path)
    XCTAssertNil(ProcessEnvironment.value(of: "REACTORKIT_PROCESS_ENVIRONMENT_TEST_UNSET"))
  }
}
