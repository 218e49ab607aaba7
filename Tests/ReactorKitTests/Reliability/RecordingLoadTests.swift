import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Loading recordings that are hostile or damaged (issue 14, item 5): memory proportional to
/// the file, and a torn last line that loses only that line.
final class RecordingLoadTests: ResourceTestCase {
  private var directory: TemporaryDirectory!
  private var url: URL { directory.file("session.jsonl") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory.remove()
    directory = nil
    super.tearDown()
  }

  /// The process's resident-memory high-water mark, reset by `reset`; `nil` where Linux's
  /// `/proc/self/status` and `clear_refs` are not available.
  private enum PeakMemory {
    static func reset() -> Bool {
      guard let file = unsafe fopen("/proc/self/clear_refs", "w") else { return false }
      defer { unsafe fclose(file) }
      return unsafe fputs("5", file) >= 0
    }

    static func kilobytes(_ field: String) -> Int? {
      guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)
      else { return nil }
      for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(
          line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first
            ?? "")
      }
      return nil
    }
  }

  func test_load_fileOfNewlines_peakMemoryIsASmallMultipleOfTheFileSize() throws {
    #if os(Linux)
      // given: a header and 8 MiB of empty lines
      let size = 8 * 1024 * 1024
      var bytes = Array((ActionRecording.headerLine(stateType: nil) + "\n").utf8)
      bytes += [UInt8](repeating: UInt8(ascii: "\n"), count: size)
      XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(bytes)))
      bytes = []
      guard PeakMemory.reset(), let before = PeakMemory.kilobytes("VmRSS") else {
        throw XCTSkip("needs /proc/self/clear_refs")
      }
      // when
      let recording = try ActionRecording(contentsOf: url, registry: DemoState.registry)
      // then
      let peak = try XCTUnwrap(PeakMemory.kilobytes("VmHWM"))
      let grown = (peak - before) * 1024
      XCTAssertEqual(recording.actions.count, 0)
      XCTAssertLessThan(
        grown, 4 * size, "loading \(size) bytes raised the peak by \(grown) bytes")
    #else
      throw XCTSkip("measures memory through /proc")
    #endif
  }

  func test_load_tornLastLine_returnsTheCompleteLines_andReportsTheTornTail() throws {
    // given: a crash mid-write cut the last action's line
    let recording = ActionRecording([DemoAction.add("a"), DemoAction.add("b")])
    let bytes = try recording.jsonLines(registry: DemoState.registry)
    let torn = Array(bytes.dropLast(10))
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(torn)))
    // when
    let loaded = try ActionRecording(contentsOf: url, registry: DemoState.registry)
    // then
    XCTAssertEqual(loaded.actions as? [DemoAction], [.add("a")])
    guard case .tornLastLine(let path, let line, let length)? = loaded.tornTail else {
      return XCTFail("torn tail \(String(describing: loaded.tornTail))")
    }
    XCTAssertEqual(path, url.path)
    XCTAssertEqual(line, 3)
    let lastNewline = try XCTUnwrap(torn.lastIndex(of: UInt8(ascii: "\n")))
    XCTAssertEqual(length, torn.count - lastNewline - 1)
    XCTAssertTrue(String(describing: loaded.tornTail!).contains("line 3"))
  }

  func test_load_everyCutOfARecording_losesAtMostTheLastAction() throws {
    // given
    let actions: [DemoAction] = [
      .add("a"), .toggle(id: 1), .tag("x"), .logIn(name: "b", password: "c"),
    ]
    let bytes = try ActionRecording(actions).jsonLines(registry: DemoState.registry)
    let headerLength = ActionRecording.headerLine(stateType: nil).utf8.count + 1
    for length in headerLength...bytes.count {
      // when
      let loaded = try ActionRecording(
        jsonLines: Array(bytes.prefix(length)), registry: DemoState.registry)
      // then
      let complete = bytes.prefix(length).filter { $0 == UInt8(ascii: "\n") }.count - 1
      let got = loaded.actions as? [DemoAction] ?? []
      XCTAssertEqual(got, Array(actions.prefix(got.count)), "length \(length)")
      XCTAssertGreaterThanOrEqual(got.count, complete, "length \(length)")
      XCTAssertEqual(
        loaded.tornTail != nil, bytes[length - 1] != 0x0A && got.count == complete,
        "length \(length): \(String(describing: loaded.tornTail))")
    }
  }

  func test_load_badLineThatIsNotLast_isStillAnError() throws {
    // given
    let text =
      ActionRecording.headerLine(stateType: nil) + "\n"
      + #"{"action":{"add":{"_0":"a"}},"type":"DemoAct"#
      + "\n" + #"{"action":{"add":{"_0":"b"}},"type":"DemoAction"}"# + "\n"
    // when / then
    XCTAssertThrowsError(
      try ActionRecording(jsonLines: Array(text.utf8), registry: DemoState.registry)
    ) { error in
      guard case .malformedLine(_, 2, _)? = error as? RecordingError else {
        return XCTFail("unexpected \(error)")
      }
    }
  }

  func test_load_badLastLineEndedByANewline_isAnError_notATornTail() throws {
    // given: the writer finished the line, so it is corrupt, not torn
    let text =
      ActionRecording.headerLine(stateType: nil) + "\n"
      + #"{"action":{"add":{"_0":"a"}},"type":"DemoAct"# + "\n"
    // when / then
    XCTAssertThrowsError(
      try ActionRecording(jsonLines: Array(text.utf8), registry: DemoState.registry))
  }
}
