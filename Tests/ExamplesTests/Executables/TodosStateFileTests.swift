import Foundation
import XCTest

/// A state file written by Todos' schema version 1 (`Todos/Fixtures/todos-v1.json`: signed in
/// as ann, two todos, the `done` filter) still opens in the current binary, which migrates it
/// once and saves it at the current version.
final class TodosStateFileTests: XCTestCase {
  func test_todos_opensAVersion1StateFile_andSavesItMigrated() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Todos/Fixtures/todos-v1.json")
    try FileManager.default.copyItem(
      at: fixture, to: directory.appendingPathComponent("todos.json"))
    // when
    let result = try ExampleProcess.run("Todos", input: "filter active\n", in: directory)
    // then
    XCTAssertEqual(result.status, 0, result.standardError)
    XCTAssertTrue(
      result.standardOutput.hasPrefix(
        """
        Todos · signed in as ann
        filter: all active [done]
          1. [x] Call mom
        2 todos · 1 done · 1 active · 50% done
        > filter active
        Todos · signed in as ann
        filter: all [active] done
          1. [ ] Buy milk
        """), result.standardOutput)
    let saved = try String(
      contentsOf: directory.appendingPathComponent("todos.json"), encoding: .utf8)
    XCTAssertTrue(saved.contains(#""schema":2"#), saved)
    XCTAssertTrue(saved.contains(#""listFilter":"active""#), saved)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted(),
      ["todos.json", "todos.log"], "no copy of the original is left once the migration is saved")
  }
}
