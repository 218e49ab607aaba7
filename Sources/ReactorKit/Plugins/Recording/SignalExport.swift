import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if !os(Windows) && !os(WASI)
  /// Exports a flight recording when the process is asked to stop by a signal: the shared
  /// machinery of ``FlightRecorder/exportWhenSignalled(to:signals:limits:redaction:then:)`` and
  /// ``ReactorFlightRecorder/exportWhenSignalled(to:signals:limits:redaction:then:)``.
  enum SignalExport {
    /// The signals that ask a process to stop: interrupt, terminate, hang up.
    static var terminationSignals: [Int32] { [SIGINT, SIGTERM, SIGHUP] }

    /// Ends the process as the signal would have.
    static func endProcess(_ signalNumber: Int32) {
      ProcessSignals.end(with: signalNumber)
    }

    /// An export, sendable because the recorders it calls are thread-safe.
    struct Export: @unchecked Sendable {
      // Safety: `run` calls a flight recorder's `export(to:)`, which any thread may call; the
      // recorder's generic parameters are only what keeps the closure from being `@Sendable`.
      let run: () throws(RecordingError) -> Void
    }

    /// What to do on a signal: export, then `then`.
    private struct Handler {
      let export: Export
      let then: @Sendable (Int32) -> Void
    }

    /// The process's watched signals: one dispatch source per signal, made on first use and
    /// kept for the process's life (libdispatch on Linux cannot have a signal's source made
    /// again while the old one's cancellation is pending), and the handlers installed for it.
    private struct Watched {
      var sources: [Int32: any DispatchSourceSignal] = [:]
      var handlers: [Int32: [UInt64: Handler]] = [:]
      var nextID: UInt64 = 0
    }

    private static let watched = LockedBox(Watched())
    private static let queue = DispatchQueue(label: "ReactorKit.FlightRecorder.signals")

    /// Runs `export` then `then` on each of `signals`, in place of the signal's default
    /// action, until the returned disposable is disposed. `nil` signals are
    /// ``terminationSignals``; a `nil` `then` ends the process as the signal would have.
    static func install(
      signals: [Int32]?, export: Export, then: (@Sendable (Int32) -> Void)?
    ) -> Disposable {
      let signals = signals ?? terminationSignals
      let then = then ?? endProcess
      let registered = DispatchGroup()
      let ids = watched.withLock { watched in
        signals.map { signalNumber -> (Int32, UInt64) in
          watched.nextID &+= 1
          let id = watched.nextID
          if watched.handlers[signalNumber, default: [:]].isEmpty {
            ProcessSignals.divertToDispatch(signalNumber)
          }
          watched.handlers[signalNumber, default: [:]][id] = Handler(export: export, then: then)
          if watched.sources[signalNumber] == nil {
            // Ignored until the source is registered (libdispatch does that asynchronously):
            // a signal meanwhile is lost rather than ending the process.
            ProcessSignals.ignore(signalNumber)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { handle(signalNumber) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            watched.sources[signalNumber] = source
          }
          return (signalNumber, id)
        }
      }
      // Returns once the watch is live (a bound, so a stuck registration cannot hang).
      _ = registered.wait(timeout: .now() + 2)
      return Disposables.create {
        watched.withLock { watched in
          for (signalNumber, id) in ids {
            watched.handlers[signalNumber]?[id] = nil
            if watched.handlers[signalNumber]?.isEmpty ?? true {
              ProcessSignals.restoreDefault(signalNumber)
            }
          }
        }
      }
    }

    /// Runs the handlers of `signalNumber`, oldest first; with none left, does what the
    /// signal's default action would (on Linux the source keeps receiving it).
    private static func handle(_ signalNumber: Int32) {
      let handlers = watched.withLock { watched in
        (watched.handlers[signalNumber] ?? [:]).sorted { $0.key < $1.key }.map(\.value)
      }
      guard !handlers.isEmpty else { ProcessSignals.end(with: signalNumber) }
      for handler in handlers {
        do {
          try handler.export.run()
        } catch {
          // The process is about to end: standard error is the one place left to say so.
          let message =
            "ReactorKit: the flight recording was not exported on signal \(signalNumber): "
            + "\(String(describing: error))\n"
          try? SecureFiles.writeAll(
            Array(message.utf8), to: SecureFiles.standardError, path: "standard error")
        }
      }
      for handler in handlers { handler.then(signalNumber) }
    }
  }

  extension FlightRecorder {
    /// Writes the export to `url` when the process receives one of `signals`, then (by
    /// default) ends the process as the signal would have.
    ///
    /// ```swift
    /// let stopWatching = flight.exportWhenSignalled(to: reportsFolder.appending(path: "last.jsonl"))
    /// ```
    ///
    /// Best effort, for apps that do not handle these signals themselves (an app that does
    /// calls ``export(to:limits:redaction:)`` from its own handler). The export runs on a
    /// queue of its own, not inside the signal handler, so it captures everything recorded
    /// until the signal. It cannot capture a crash: `SIGSEGV`, `SIGBUS`, `SIGILL` (a failed
    /// `precondition`) and `SIGKILL` end the process before any Swift code can safely run.
    /// A failed export is written to standard error, and `then` runs all the same.
    ///
    /// - Parameters:
    ///   - url: Where to write the export (atomically, owner-only).
    ///   - signals: The signals to export on; interrupt, terminate and hang-up by default.
    ///     Their default action is turned off while installed.
    ///   - limits: The limits the export will be loaded with.
    ///   - redaction: For a copy to share (see ``exportData(limits:redaction:)``).
    ///   - then: Runs after the export with the signal's number, on the export's queue;
    ///     `nil` (the default) ends the process as the signal would have.
    /// - Returns: A disposable that stops watching and restores the signals' default action.
    @discardableResult
    public func exportWhenSignalled(
      to url: URL, signals: [Int32]? = nil, limits: LoadingLimits = .default,
      redaction: LogRedaction? = nil,
      then: (@Sendable (_ signal: Int32) -> Void)? = nil
    ) -> Disposable {
      SignalExport.install(
        signals: signals,
        export: SignalExport.Export { [self] () throws(RecordingError) in
          try export(to: url, limits: limits, redaction: redaction)
        }, then: then)
    }
  }

  extension ReactorFlightRecorder {
    /// Writes the export to `url` when the process receives one of `signals`, then (by
    /// default) ends the process as the signal would have; see
    /// ``FlightRecorder/exportWhenSignalled(to:signals:limits:redaction:then:)`` for what is
    /// and isn't captured.
    ///
    /// - Parameters:
    ///   - url: Where to write the export (atomically, owner-only).
    ///   - signals: The signals to export on; interrupt, terminate and hang-up by default.
    ///   - limits: The limits the export will be loaded with.
    ///   - redaction: For a copy to share.
    ///   - then: Runs after the export with the signal's number; `nil` (the default) ends
    ///     the process as the signal would have.
    /// - Returns: A disposable that stops watching and restores the signals' default action.
    @discardableResult
    public func exportWhenSignalled(
      to url: URL, signals: [Int32]? = nil, limits: LoadingLimits = .default,
      redaction: LogRedaction? = nil,
      then: (@Sendable (_ signal: Int32) -> Void)? = nil
    ) -> Disposable {
      SignalExport.install(
        signals: signals,
        export: SignalExport.Export { [self] () throws(RecordingError) in
          try export(to: url, limits: limits, redaction: redaction)
        }, then: then)
    }
  }
#endif
