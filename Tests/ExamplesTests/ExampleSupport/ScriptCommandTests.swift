import ExampleSupport
import XCTest

final class ScriptCommandTests: XCTestCase {
  func test_init_splitsNameAndArgument() throws {
    // when
    let command = try XCTUnwrap(ScriptCommand("  EDIT  2   Buy oat milk \r"))
    // then
    XCTAssertEqual(command.name, "edit")
    XCTAssertEqual(command.argument, "2   Buy oat milk")
    XCTAssertEqual(command.splitArgument.first, "2")
    XCTAssertEqual(command.splitArgument.rest, "Buy oat milk")
  }

  func test_init_skipsBlankLinesAndComments() {
    XCTAssertNil(ScriptCommand(""))
    XCTAssertNil(ScriptCommand("   \t"))
    XCTAssertNil(ScriptCommand("# a comment"))
    XCTAssertEqual(ScriptCommand("help")?.argument, "")
  }
}
