import XCTest

/// Drives the ReSwiftCounter executable through standard input.
final class ReSwiftCounterExecutableTests: XCTestCase {
  func test_reSwiftCounter_script_printsTheScreenAfterEachCommand() throws {
    // when
    let result = try ExampleProcess.run(
      "ReSwiftCounter", ["--log"], input: "+\n\nincrease\n-\njump\nreset\nquit\n+\n")

    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertEqual(
      result.standardOutput,
      """
      ReSwift counter  (-5…5)
      value: 0  [     ]
      > +
      ReSwift counter  (-5…5)
      value: 1  [     #]
      > increase
      ReSwift counter  (-5…5)
      value: 2  [     ##]
      > -
      ReSwift counter  (-5…5)
      value: 1  [     #]
      > jump
      Unknown command 'jump'. Commands: increase (+), decrease (-), reset, quit.
      > reset
      ReSwift counter  (-5…5)
      value: 0  [     ]
      > quit

      """)
    XCTAssertEqual(
      result.standardError,
      """
      CounterActionIncrease -> 1
      CounterActionIncrease -> 2
      CounterActionDecrease -> 1
      CounterActionReset -> 0

      """)
  }

  func test_reSwiftCounter_script_stopsAtTheLimit() throws {
    // when
    let result = try ExampleProcess.run(
      "ReSwiftCounter", [], input: String(repeating: "-\n", count: 7))

    // then
    XCTAssertEqual(result.status, 0)
    XCTAssertTrue(
      result.standardOutput.hasSuffix("> -\nReSwift counter  (-5…5)\nvalue: -5  [#####]\n"))
    XCTAssertEqual(result.standardError, "")
  }
}
