import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue 32, part 1: `FlightRecorder.exportWhenSignalled(to:)` with its default `then` writes
/// the export and ends the process by the signal (a process of its own:
/// `ReactorKitBenchmarks --signal-export-check PATH`).
final class SignalExportProcessTests: XCTestCase {
  func test_aTerminatedProcess_exportsItsRecording_andEndsByTheSignal() throws {
    // given
    let directory = try makeTemporaryDirectory(for: self)
    let path = directory.appendingPathComponent("terminated.jsonl").path
    let process = Process()
    process.executableURL = try ExampleProcess.executable("ReactorKitBenchmarks")
    process.arguments = ["--signal-export-check", path]
    let standardError = Pipe()
    process.standardError = standardError
    // when
    try process.run()
    let status = ExampleProcess.waitForExit(process, timeout: 60)
    // then
    let errors = String(
      decoding: standardError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(process.terminationReason, .uncaughtSignal, errors)
    XCTAssertEqual(status, SIGTERM, errors)
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 4, "a header and three actions")
    XCTAssertTrue(lines.first?.contains("\"format\":\"reactorkit.actions\"") ?? false)
    XCTAssertTrue(lines.dropFirst().allSatisfy { $0.contains("\"checkpoint\"") })
  }
}
