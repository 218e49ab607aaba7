import Foundation
import XCTest

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// Runs one of the example executables built next to the test bundle.
enum ExampleProcess {
  struct Output {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  /// The executable `name` from the build products directory that holds the test bundle
  /// (`.build/debug`, or another `--scratch-path`'s products, on every platform).
  static func executable(_ name: String) throws -> URL {
    let bundle = Bundle(for: Marker.self).bundleURL
    let directories = [
      bundle, bundle.deletingLastPathComponent(), Bundle.main.bundleURL,
      Bundle.main.bundleURL.deletingLastPathComponent(),
    ]
    for directory in directories {
      let candidate = directory.appendingPathComponent(name)
      var isDirectory: ObjCBool = false
      if unsafe FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
        !isDirectory.boolValue, FileManager.default.isExecutableFile(atPath: candidate.path)
      {
        return candidate
      }
    }
    throw XCTSkip(
      "The \(name) executable was not found next to the test bundle in \(directories); "
        + "build it with `swift build`.")
  }

  /// Runs `name` with `arguments`, feeding `input` on a pipe (scripted mode), and waits for
  /// it to exit; stops it after `timeout` seconds.
  static func run(
    _ name: String, _ arguments: [String] = [], input: String, in directory: URL? = nil,
    timeout: TimeInterval = 60
  ) throws -> Output {
    let process = Process()
    process.executableURL = try executable(name)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let standardInput = Pipe()
    let standardOutput = Pipe()
    let standardError = Pipe()
    process.standardInput = standardInput
    process.standardOutput = standardOutput
    process.standardError = standardError
    try process.run()
    let watchdog = Watchdog(process: process, timeout: timeout)
    defer { watchdog.cancel() }
    standardInput.fileHandleForWriting.write(Data(input.utf8))
    try standardInput.fileHandleForWriting.close()
    let errors = ErrorCollector(standardError.fileHandleForReading)
    let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, standardOutput: String(decoding: output, as: UTF8.self),
      standardError: errors.text())
  }

  /// Waits for `process` to exit, terminating it after `timeout` seconds; returns its status.
  static func waitForExit(_ process: Process, timeout: TimeInterval = 30) -> Int32 {
    let watchdog = Watchdog(process: process, timeout: timeout)
    defer { watchdog.cancel() }
    process.waitUntilExit()
    return process.terminationStatus
  }

  private final class Marker {}
}

/// Terminates a process that runs longer than a test allows.
private final class Watchdog: @unchecked Sendable {
  // Safety: `process` is only used to terminate it, which Foundation allows from any thread;
  // `cancelled` is guarded by `lock`.
  private let process: Process
  private let lock = NSLock()
  private var cancelled = false

  init(process: Process, timeout: TimeInterval) {
    self.process = process
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [self] in
      lock.lock()
      let fire = !cancelled
      lock.unlock()
      if fire && process.isRunning { process.terminate() }
    }
  }

  func cancel() {
    lock.lock()
    cancelled = true
    lock.unlock()
  }
}

/// Reads a pipe to its end on a background thread, so neither pipe of a child fills up.
private final class ErrorCollector: @unchecked Sendable {
  // Safety: `data` is written once on the reading thread before `done` is signalled and read
  // only after waiting for it.
  private var data = Data()
  private let done = DispatchSemaphore(value: 0)

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  func text() -> String {
    done.wait()
    return String(decoding: data, as: UTF8.self)
  }
}

/// A fresh empty directory, removed when the test ends.
func makeTemporaryDirectory(for test: XCTestCase) throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("ExamplesTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  test.addTeardownBlock { try? FileManager.default.removeItem(at: url) }
  return url
}

/// A pseudo-terminal for running an example interactively.
final class PseudoTerminal {
  let primary: Int32
  let secondary: Int32
  private(set) var received = ""

  init() throws {
    primary = PseudoTerminalAPI.openPrimary(O_RDWR | O_NOCTTY)
    guard primary >= 0, PseudoTerminalAPI.grant(primary) == 0,
      PseudoTerminalAPI.unlock(primary) == 0, let name = PseudoTerminalAPI.name(primary)
    else { throw XCTSkip("No pseudo-terminals on this machine.") }
    secondary = unsafe open(name, O_RDWR | O_NOCTTY)
    guard secondary >= 0 else { throw XCTSkip("Cannot open the pseudo-terminal \(name).") }
    var size = winsize(ws_row: 24, ws_col: 80, ws_xpixel: 0, ws_ypixel: 0)
    _ = unsafe ioctl(secondary, UInt(TIOCSWINSZ), &size)
  }

  deinit {
    close(primary)
    close(secondary)
  }

  /// The terminal's local modes (canonical input, echo…), as the program left them.
  var localModes: tcflag_t {
    var settings = termios()
    unsafe tcgetattr(secondary, &settings)
    return settings.c_lflag
  }

  /// Starts `name` with the terminal as its standard input, output and error.
  func start(_ name: String, _ arguments: [String] = [], in directory: URL? = nil) throws
    -> Process
  {
    let process = Process()
    process.executableURL = try ExampleProcess.executable(name)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let handle = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    return process
  }

  /// Types `text` as one write, like a terminal sends a key or a paste.
  func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = unsafe bytes.withUnsafeBytes { unsafe write(primary, $0.baseAddress, $0.count) }
  }

  /// Reads what the program drew until `text` appears in it, for at most `timeout` seconds.
  @discardableResult
  func waitFor(_ text: String, timeout: TimeInterval = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !received.contains(text) && Date() < deadline {
      var descriptor = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
      guard unsafe poll(&descriptor, 1, 50) > 0 else { continue }
      let count = unsafe read(primary, &buffer, buffer.count)
      guard count > 0 else { break }
      received += String(decoding: buffer[0..<count], as: UTF8.self)
    }
    return received.contains(text)
  }
}

/// `posix_openpt`, `grantpt`, `unlockpt` and `ptsname`: Glibc declares them only for some
/// feature-test macros, which Swift's Glibc module does not set, so they are looked up at run
/// time there.
private enum PseudoTerminalAPI {
  #if canImport(Glibc)
    private static func function<Function>(_ name: String, _ type: Function.Type) -> Function {
      guard let symbol = unsafe dlsym(nil, name) else { fatalError("libc has no \(name).") }
      return unsafe unsafeBitCast(symbol, to: type)
    }

    static let openPrimary = function(
      "posix_openpt", (@convention(c) (Int32) -> Int32).self)
    static let grant = function("grantpt", (@convention(c) (Int32) -> Int32).self)
    static let unlock = function("unlockpt", (@convention(c) (Int32) -> Int32).self)
    private static let ptsname = unsafe function(
      "ptsname", (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
  #else
    static let openPrimary = posix_openpt
    static let grant = grantpt
    static let unlock = unlockpt
    private static let ptsname = Darwin.ptsname
  #endif

  static func name(_ descriptor: Int32) -> String? {
    unsafe ptsname(descriptor).map { unsafe String(cString: $0) }
  }
}
