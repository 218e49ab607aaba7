import ExampleSupport
import XCTest

final class ArgumentsTests: XCTestCase {
  func test_arguments_flagsAndOptions() throws {
    // given
    var arguments = Arguments(["--online", "--state", "s.json", "--delay=0.25"])
    // when
    let online = arguments.flag("--online")
    let verbose = arguments.flag("--verbose")
    let state = try arguments.option("--state")
    let delay = try arguments.interval("--delay", default: 1)
    let latency = try arguments.interval("--latency", default: 0.5)
    // then
    XCTAssertTrue(online)
    XCTAssertFalse(verbose)
    XCTAssertEqual(state, "s.json")
    XCTAssertEqual(delay, .milliseconds(250))
    XCTAssertEqual(latency, .milliseconds(500))
    XCTAssertNoThrow(try arguments.finish())
  }

  func test_arguments_reportMistakes() {
    // given
    var missingValue = Arguments(["--state"])
    var badNumber = Arguments(["--delay", "-1"])
    let unknown = Arguments(["--colour"])
    // then
    XCTAssertThrowsError(try missingValue.option("--state")) {
      XCTAssertEqual($0 as? ArgumentError, ArgumentError("--state needs a value."))
    }
    XCTAssertThrowsError(try badNumber.interval("--delay", default: 0)) {
      XCTAssertEqual(
        $0 as? ArgumentError, ArgumentError("--delay expects a number of seconds, got '-1'."))
    }
    XCTAssertThrowsError(try unknown.finish()) {
      XCTAssertEqual($0 as? ArgumentError, ArgumentError("Unknown argument '--colour'."))
    }
  }
}
