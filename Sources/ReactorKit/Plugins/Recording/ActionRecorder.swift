#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif
#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Records the actions a store reduces, as JSON lines in a file or in memory, for replay
/// (``ActionRecording``).
///
/// ```swift
/// let recorder = try ActionRecorder(registry: registry, url: sessionURL)
/// recorder.attach(to: store)
/// ```
///
/// The recorder subscribes to the store's `actions`: it records each action as it reaches the
/// reducer, after middleware, which is exactly what replaying needs to reproduce the state.
/// Each action is written with one unbuffered `write` as it happens, so the file is complete
/// up to the last action even if the app crashes. The file is created owner-only (mode 0600)
/// and starts with the format's header line.
///
/// Actions of types missing from the registry can't be recorded: they are skipped, their
/// type names collected in ``skippedTypes`` and reported to `onError`, since a replay without
/// them may not reproduce the state.
///
/// ## Threading
///
/// Thread-safe; actions are recorded in the order the recorder receives them.
public final class ActionRecorder: @unchecked Sendable {
  // Safety: `actions`, `skipped`, `descriptor` and `failed` are guarded by `lock`, which is
  // held around each write so lines never interleave. The other properties are immutable.
  private let registry: ActionRegistry
  private let path: String?
  private let encoder = ActionRecording.lineEncoder()
  private let onError: @Sendable (RecordingError) -> Void
  private let lock = Lock()
  private var actions: [any Action] = []
  private var skipped: [String] = []
  private var descriptor: Int32 = -1
  private var failed = false

  /// Creates a recorder that keeps the actions in memory (see ``recording``).
  ///
  /// - Parameters:
  ///   - registry: The action types to record.
  ///   - onError: Called with each action that could not be recorded.
  public init(
    registry: ActionRegistry, onError: @escaping @Sendable (RecordingError) -> Void = { _ in }
  ) {
    self.registry = registry
    self.path = nil
    self.onError = onError
  }

  /// Creates a recorder that writes to the file at `url`, replacing an existing file.
  ///
  /// - Parameters:
  ///   - registry: The action types to record.
  ///   - url: The recording file, created owner-only.
  ///   - onError: Called with each action that could not be recorded, and when writing fails
  ///     (the recorder then stops writing).
  /// - Throws: ``RecordingError/writeFailed(path:reason:)`` when the file can't be created.
  public init(
    registry: ActionRegistry, url: URL,
    onError: @escaping @Sendable (RecordingError) -> Void = { _ in }
  ) throws(RecordingError) {
    let path = url.fileSystemPath
    self.registry = registry
    self.path = path
    self.onError = onError
    do {
      descriptor = try SecureFiles.openForAppending(path, truncate: true)
      try SecureFiles.writeAll(
        Array((ActionRecording.headerLine + "\n").utf8), to: descriptor, path: path)
    } catch {
      if descriptor >= 0 { close(descriptor) }
      throw .writeFailed(path: path, reason: error.description)
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Records every action `store` reduces from now on.
  ///
  /// - Returns: A disposable that stops recording. The subscription does not keep the store
  ///   alive.
  @discardableResult
  public func attach<State>(to store: Store<State>) -> Disposable {
    store.actions.subscribe(onNext: { [self] action in record(action) })
  }

  /// Records `action`.
  public func record(_ action: any Action) {
    let line: [UInt8]
    do {
      line = try ActionRecording.line(for: action, registry: registry, encoder: encoder)
    } catch {
      lock.withLock { skipped.append(String(describing: type(of: action))) }
      onError(error)
      return
    }
    var failure: RecordingError?
    lock.lock()
    if let path {
      if !failed {
        do {
          try SecureFiles.writeAll(line, to: descriptor, path: path)
        } catch {
          failed = true
          failure = .writeFailed(path: path, reason: error.description)
        }
      }
    } else {
      actions.append(action)
    }
    lock.unlock()
    if let failure { onError(failure) }
  }

  /// The actions recorded so far, when recording in memory; empty when recording to a file
  /// (load the file with ``ActionRecording/init(contentsOf:registry:limits:)``).
  public var recording: ActionRecording {
    ActionRecording(lock.withLock { actions })
  }

  /// The type names of actions that could not be recorded, in order.
  public var skippedTypes: [String] {
    lock.withLock { skipped }
  }

  /// Syncs the recording file to disk.
  public func sync() {
    lock.withLock {
      if descriptor >= 0 { _ = fsync(descriptor) }
    }
  }
}
