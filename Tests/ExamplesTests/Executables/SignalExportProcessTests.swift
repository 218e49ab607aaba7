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
  /// Whether this process (and so the executables built with it) runs under a sanitizer,
  /// found by its runtime's entry point.
  private static var isSanitized: Bool {
    guard let handle = unsafe dlopen(nil, RTLD_NOW) else { return false }
    defer { unsafe _ = dlclose(handle) }
    return unsafe dlsym(handle, "__asan_init") != nil || dlsym(handle, "__tsan_init") != nil
  }

  func test_aTerminatedProcess_exportsItsRecording_andEndsByTheSignal() throws {
    // The benchmark executable links a malloc interposer (MallocCounter) that the sanitizers'
    // runtimes do not share the heap with: under them it stops by another signal.
    if Self.isSanitized {
      throw XCTSkip("the benchmark executable is not meant to run under a sanitizer")
    }
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
