import Foundation
import XCTest

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Every way the Todos binary can be asked to stop, with its commands piped in (no terminal,
/// no `--inspect`), saves the last state: SIGTERM, SIGINT and SIGHUP flush and exit with
/// 128 + the signal, and a reader that goes away (SIGPIPE on standard output) does not end the
/// program before its input does. The changes are made within the persistence's one-second
/// interval, so only the flush on the way out can have saved them.
final class TodosStopTests: XCTestCase {
  override func setUp() {
    super.setUp()
    // A command sent to a program that already ended fails with EPIPE instead of killing the
    // test process.
    signal(SIGPIPE, SIG_IGN)
  }

  func test_todos_piped_savesTheLastStateOnSIGTERM_SIGINT_andSIGHUP() throws {
    for signalNumber in [SIGTERM, SIGINT, SIGHUP] {
      // given
      let directory = try makeTemporaryDirectory(for: self)
      let todos = try PipedTodos(in: directory)
      defer { todos.stop() }
      todos.send("add first\n")
      XCTAssertTrue(todos.waitForOutput("1 todo · 0 done"), todos.report)
      todos.send("add second\nadd third\ntoggle 3\n")
      XCTAssertTrue(todos.waitForOutput("3 todos · 1 done"), todos.report)
      // when
      kill(todos.processIdentifier, signalNumber)
      let (reason, status) = todos.waitForExit(endingInput: false)
      // then
      XCTAssertEqual(reason, .exit, "signal \(signalNumber) ended the program without a flush")
      XCTAssertEqual(status, 128 + signalNumber)
      let saved = try String(
        contentsOf: directory.appendingPathComponent("todos.json"), encoding: .utf8)
      for title in ["first", "second", "third"] {
        XCTAssertTrue(saved.contains(#""title":"\#(title)""#), "signal \(signalNumber): \(saved)")
      }
    }
  }

  func test_todos_piped_withoutAReaderOfItsOutput_runsToTheEndOfInputAndSaves() throws {
    // given: nobody reads the screens (`Todos < script | head -1` once head ended), so each
    // write to standard output gets SIGPIPE
    let directory = try makeTemporaryDirectory(for: self)
    let todos = try PipedTodos(in: directory, readsOutput: false)
    defer { todos.stop() }
    // when
    todos.send("add first\nadd second\nadd third\n")
    let (reason, status) = todos.waitForExit()
    // then
    XCTAssertEqual(reason, .exit, "SIGPIPE ended the program before its input did")
    XCTAssertEqual(status, 0)
    let saved = try String(
      contentsOf: directory.appendingPathComponent("todos.json"), encoding: .utf8)
    XCTAssertTrue(saved.contains(#""title":"third""#), saved)
  }
}

/// The Todos binary with its standard input kept open for more commands and its standard
/// output collected as it arrives.
private final class PipedTodos: @unchecked Sendable {
  // Safety: `output` is guarded by `lock`; the process and the input pipe are
  // used from the test's thread, the reading thread only reads its pipe.
  private let process = Process()
  private let input = Pipe()
  private let outputPipe = Pipe()
  private let lock = NSLock()
  private var output = ""

  init(in directory: URL, readsOutput: Bool = true) throws {
    process.executableURL = try ExampleProcess.executable("Todos")
    process.currentDirectoryURL = directory
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = outputPipe
    process.standardError = error
    // The program starts with SIGPIPE at its default action, as from a shell (this test
    // process ignores it, and an ignored signal stays ignored across exec).
    signal(SIGPIPE, SIG_DFL)
    defer { signal(SIGPIPE, SIG_IGN) }
    try process.run()
    Thread.detachNewThread { _ = error.fileHandleForReading.readDataToEndOfFile() }
    let reading = outputPipe.fileHandleForReading
    guard readsOutput else {
      try reading.close()
      return
    }
    Thread.detachNewThread { [self] in
      while case let data = reading.availableData, !data.isEmpty {
        lock.withLock { output += String(decoding: data, as: UTF8.self) }
      }
    }
  }

  var processIdentifier: Int32 { process.processIdentifier }

  /// The output so far, for failure messages.
  var report: String { "the program wrote:\n" + lock.withLock { output } }

  func send(_ text: String) {
    do {
      try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    } catch {
      XCTFail("Todos no longer reads its input (\(error)); \(report)")
    }
  }

  /// Whether the output contains `text` within 20 s.
  func waitForOutput(_ text: String, timeout: TimeInterval = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if lock.withLock({ output.contains(text) }) { return true }
      guard process.isRunning else { return lock.withLock { output.contains(text) } }
      Thread.sleep(forTimeInterval: 0.01)
    }
    return false
  }

  /// Ends the input (unless told not to: the end of input would race a signal), waits (at
  /// most 20 s) for the program to exit, and returns how it ended.
  func waitForExit(endingInput: Bool = true) -> (Process.TerminationReason, Int32) {
    if endingInput { try? input.fileHandleForWriting.close() }
    let status = ExampleProcess.waitForExit(process, timeout: 20)
    return (process.terminationReason, status)
  }

  func stop() {
    if process.isRunning { process.terminate() }
  }
}
