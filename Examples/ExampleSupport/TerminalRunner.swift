import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs a ``TerminalScreen`` as a program, interactively or from a script.
///
/// - Interactive (standard input and output are terminals): raw keys, a full-screen frame
///   redrawn in place after each key and each ``TerminalScreen/onChange``; Ctrl-C restores
///   the terminal and exits.
/// - Scripted (otherwise): one command per line from standard input (blank lines and `#`
///   comments skipped). Each command is echoed as `> command`, then, once the screen
///   ``TerminalScreen/isIdle``, the screen is printed as plain text. `quit` or the end of the
///   input ends the program.
///
/// In both modes SIGINT, SIGTERM and SIGHUP end the program through `onExit` with status
/// 128 + the signal, and SIGPIPE is ignored (a closed output does not end the program).
///
/// Everything the runner and the screen do happens on the main queue; input is read on a
/// background thread and handed over.
public final class TerminalRunner: @unchecked Sendable {
  // Safety: after `run()` starts, every stored property is used only on the main queue.
  private let screen: TerminalScreen
  private let isInteractive: Bool
  private let idleTimeout: TimeInterval
  private let onExit: () -> Void
  private let keepsRunningAfterInput: Bool
  private var decoder = KeyDecoder()
  private var partialLine: [UInt8] = []
  private var pendingLines: [String] = []
  private var inputEnded = false
  private var isWaitingForIdle = false
  private var waitGeneration = 0
  private var isRedrawScheduled = false
  private var signalSources: [DispatchSourceSignal] = []

  /// Creates a runner for `screen`.
  /// - Parameters:
  ///   - isInteractive: Interactive or scripted mode; by default interactive exactly when
  ///     standard input and output are terminals.
  ///   - idleTimeout: How long scripted mode waits for the screen to become idle before
  ///     printing it anyway with a warning.
  ///   - onExit: Runs on the main queue just before the program exits, whatever the reason
  ///     (quit, end of input, Ctrl-C, a signal), after the terminal is restored: save state
  ///     and flush logs here.
  ///   - keepsRunningAfterInput: In scripted mode, keep running after the end of the input,
  ///     until `quit` or a signal (for example while an inspector page is open).
  public init(
    screen: TerminalScreen, isInteractive: Bool = Terminal.isInteractive,
    idleTimeout: TimeInterval = 30, keepsRunningAfterInput: Bool = false,
    onExit: @escaping () -> Void = {}
  ) {
    self.screen = screen
    self.isInteractive = isInteractive
    self.idleTimeout = idleTimeout
    self.keepsRunningAfterInput = keepsRunningAfterInput
    self.onExit = onExit
  }

  /// Starts the program on the main thread; returns only by exiting the process.
  public func run() -> Never {
    screen.onChange = { [unowned self] in self.screenChanged() }
    // Every way the program can be asked to stop ends in `finish` (and `onExit`), in both
    // modes: the signals before anything is shown, and a reader of the output that went away
    // (SIGPIPE) only makes writes fail, so the program still ends at `quit` or its input's end.
    signal(SIGPIPE, SIG_IGN)
    installSignalHandlers()
    if isInteractive {
      do {
        try Terminal.enterFullScreen()
      } catch {
        Terminal.write("error: \(error)\n")
        exit(1)
      }
      redraw()
    } else {
      printScreen()
    }
    startReadingInput()
    AddressSanitizer.mainThreadWillEnd()
    dispatchMain()
  }

  private func finish(status: Int32) -> Never {
    Terminal.restore()
    onExit()
    fflush(nil)
    exit(status)
  }

  // MARK: - Input

  private func startReadingInput() {
    let thread = Thread { [self] in
      var buffer = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = unsafe read(STDIN_FILENO, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else {
          DispatchQueue.main.async { self.receiveEndOfInput() }
          return
        }
        let chunk = Array(buffer[0..<count])
        DispatchQueue.main.async { self.receive(chunk) }
      }
    }
    thread.name = "TerminalRunner.input"
    thread.start()
  }

  private func receive(_ bytes: [UInt8]) {
    if isInteractive {
      for key in decoder.decode(bytes) {
        if key == .control("c") { finish(status: 130) }
        if screen.handle(key) == .quit { finish(status: 0) }
      }
      redraw()
    } else {
      for byte in bytes {
        if byte == UInt8(ascii: "\n") {
          pendingLines.append(String(decoding: partialLine, as: UTF8.self))
          partialLine.removeAll()
        } else if byte != UInt8(ascii: "\r") {
          partialLine.append(byte)
        }
      }
      runPendingCommands()
    }
  }

  private func receiveEndOfInput() {
    guard !isInteractive else { finish(status: 0) }
    if !partialLine.isEmpty {
      pendingLines.append(String(decoding: partialLine, as: UTF8.self))
      partialLine.removeAll()
    }
    inputEnded = true
    runPendingCommands()
  }

  // MARK: - Scripted mode

  private func runPendingCommands() {
    while !isWaitingForIdle, !pendingLines.isEmpty {
      let line = pendingLines.removeFirst()
      guard let command = ScriptCommand(line) else { continue }
      Terminal.write("> \(line.trimmingCharacters(in: .whitespacesAndNewlines))\n")
      if command.name == "quit" || command.name == "exit" || screen.perform(command) == .quit {
        finish(status: 0)
      }
      if screen.isIdle {
        printScreen()
      } else {
        waitForIdle()
      }
    }
    if !isWaitingForIdle && pendingLines.isEmpty && inputEnded && !keepsRunningAfterInput {
      finish(status: 0)
    }
  }

  private func waitForIdle() {
    isWaitingForIdle = true
    waitGeneration += 1
    let generation = waitGeneration
    DispatchQueue.main.asyncAfter(deadline: .now() + idleTimeout) {
      guard self.isWaitingForIdle, self.waitGeneration == generation else { return }
      Terminal.write("(still busy after \(self.idleTimeout) s; printing the screen as it is)\n")
      self.isWaitingForIdle = false
      self.printScreen()
      self.runPendingCommands()
    }
  }

  private func printScreen() {
    let lines = screen.render(.script)
    Terminal.write(lines.joined(separator: "\n") + "\n")
  }

  // MARK: - Changes and signals

  private func screenChanged() {
    if isInteractive {
      guard !isRedrawScheduled else { return }
      isRedrawScheduled = true
      DispatchQueue.main.async {
        self.isRedrawScheduled = false
        self.redraw()
      }
    } else if isWaitingForIdle {
      // Resume outside the caller (often a reactor delivering state), so the next command
      // does not run inside that delivery.
      DispatchQueue.main.async {
        guard self.isWaitingForIdle, self.screen.isIdle else { return }
        self.isWaitingForIdle = false
        self.printScreen()
        self.runPendingCommands()
      }
    }
  }

  private func redraw() {
    let size = Terminal.size()
    Terminal.draw(screen.render(.terminal(size)), size: size)
  }

  private func installSignalHandlers() {
    for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGWINCH] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .main)
      source.setEventHandler {
        if signalNumber == SIGWINCH {
          if self.isInteractive { self.redraw() }
        } else {
          self.finish(status: 128 + signalNumber)
        }
      }
      source.resume()
      signalSources.append(source)
    }
  }
}

/// Tells the address sanitizer, when the program runs under it, that the main thread's frames
/// are abandoned: `dispatchMain()` ends the main thread with `pthread_exit`, so those frames never
/// return and their locals stay poisoned, and the thread-specific data destructors that run as
/// the thread ends (a `CurrentThreadScheduler` trampoline, for one) would report overflows into
/// them. Does nothing in a build without the sanitizer.
enum AddressSanitizer {
  static func mainThreadWillEnd() {
    typealias HandleNoReturn = @convention(c) () -> Void
    guard let program = unsafe dlopen(nil, RTLD_NOW),
      let symbol = unsafe dlsym(program, "__asan_handle_no_return")
    else { return }
    unsafe unsafeBitCast(symbol, to: HandleNoReturn.self)()
  }
}
