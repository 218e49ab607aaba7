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
/// let store = Store(reducer: app, state: AppState(), plugins: [recorder.forStore()])
/// // or, to start recording a running store later:
/// let recording = store.install(recorder.forStore())
/// ```
///
/// The recorder subscribes to the store's `actions`: it records each action as it reaches the
/// reducer, after middleware, which is exactly what replaying needs to reproduce the state.
/// Each action is written with one unbuffered `write` as it happens, so the file is complete
/// up to the last action even if the app crashes (a line cut off by a crash is reported by
/// ``ActionRecording/tornTail`` when loading, and the lines before it load). The file is
/// created owner-only (mode 0600) and starts with the format's header line, which names the
/// state type of the store the recorder is installed in (``ActionRecording/stateType``), so a
/// replay into a store of another state type is refused.
///
/// > Important: Actions are recorded unredacted, secrets included, since replaying needs the
/// > real values: treat a recording like the data it holds. For a recording to share, pass a
/// > `redaction` (it may then not replay).
///
/// Actions of types missing from the registry can't be recorded: they are skipped, their
/// type names collected in ``skippedTypes`` and reported to `onError`, since a replay without
/// them may not reproduce the state.
///
/// ## Threading
///
/// Thread-safe; actions are recorded in the order the recorder receives them.
public final class ActionRecorder: @unchecked Sendable {
  // Safety: `actions`, `skipped`, `descriptor`, `failed`, `bytesWritten`, `headerSize` and
  // `stateType` are guarded by `lock`, which is held around each write so lines never
  // interleave. The other properties are immutable.
  private let registry: ActionRegistry
  private let path: String?
  private let encoder = ActionRecording.lineEncoder()
  private let onError: @Sendable (RecordingError) -> Void
  private let limits: LoadingLimits
  private let redaction: LogRedaction?
  private let lock = Lock()
  private var actions: [any Action] = []
  private var skipped: [String] = []
  private var descriptor: Int32 = -1
  private var failed = false
  private var bytesWritten = 0
  private var headerSize = 0
  private var stateType: String?

  /// Creates a recorder that keeps the actions in memory (see ``recording``).
  ///
  /// - Parameters:
  ///   - registry: The action types to record.
  ///   - limits: The limits the recording will be loaded with: an action too deeply nested
  ///     for them is not recorded.
  ///   - onError: Called with each action that could not be recorded.
  public init(
    registry: ActionRegistry, limits: LoadingLimits = .default,
    onError: @escaping @Sendable (RecordingError) -> Void = { _ in }
  ) {
    self.registry = registry
    self.path = nil
    self.limits = limits
    self.redaction = nil
    self.onError = onError
  }

  /// Creates a recorder that writes to the file at `url`, replacing an existing file.
  ///
  /// - Parameters:
  ///   - registry: The action types to record.
  ///   - url: The recording file, created owner-only. A symbolic link, FIFO, directory or hard
  ///     link to another file at this path is refused.
  ///   - limits: The limits the recording will be loaded with: an action too deeply nested
  ///     for them, or one that would make the file larger than they allow, is not recorded
  ///     (``RecordingError/unreplayable(type:reason:)``), so the file always loads.
  ///   - redaction: For a recording that will be shared: secret members of each action's JSON
  ///     are replaced (see ``ActionRecording/jsonLines(registry:limits:redaction:)``). Such
  ///     a recording may not replay. `nil` (the default) records the actions as they are.
  ///   - onError: Called with each action that could not be recorded, and when writing fails
  ///     (the recorder then stops writing).
  /// - Throws: ``RecordingError/writeFailed(path:reason:)`` when the file can't be created.
  public init(
    registry: ActionRegistry, url: URL, limits: LoadingLimits = .default,
    redaction: LogRedaction? = nil,
    onError: @escaping @Sendable (RecordingError) -> Void = { _ in }
  ) throws(RecordingError) {
    let path = url.fileSystemPath
    self.registry = registry
    self.path = path
    self.limits = limits
    self.redaction = redaction
    self.onError = onError
    do {
      descriptor = try SecureFiles.openForAppending(path, truncate: true)
      let header = Array((ActionRecording.headerLine(stateType: nil) + "\n").utf8)
      try SecureFiles.writeAll(header, to: descriptor, path: path)
      bytesWritten = header.count
      headerSize = header.count
    } catch {
      SecureFiles.closeDescriptor(descriptor)
      throw .writeFailed(path: path, reason: error.description)
    }
  }

  deinit { SecureFiles.closeDescriptor(descriptor) }

  /// Records every action `store` reduces from now on.
  @available(
    *, deprecated,
    message:
      "Install the recorder: 'Store(reducer:state:plugins: [recorder.forStore()])', or 'store.install(recorder.forStore())' for a running store."
  )
  @discardableResult
  public func attach<State>(to store: Store<State>) -> Disposable {
    begin(stateType: ActionRecording.name(of: State.self))
    return store.actions.subscribe(onNext: { [self] action in record(action) })
  }

  /// The plugin that records every action a store reduces, from the moment it is installed:
  /// in ``Store/init(reducer:state:middleware:plugins:)``, or in a running store with
  /// ``Store/install(_:)`` (whose disposable stops recording). ``Store/flushPlugins()``
  /// and freeing the store flush the recording file.
  public func forStore<State>() -> ForStore<State> {
    ForStore(recorder: self)
  }

  /// An ``ActionRecorder`` installed in a store (``ActionRecorder/forStore()``).
  public struct ForStore<State>: StorePlugin {
    let recorder: ActionRecorder

    public func install(in setup: inout StorePluginSetup<State>) {
      let recorder = self.recorder
      recorder.begin(stateType: ActionRecording.name(of: State.self))
      setup.onStart { store in
        store.actions.subscribe(onNext: { action in recorder.record(action) })
      }
      setup.onFlush { recorder.flush() }
      setup.onClose { recorder.flush() }
    }
  }

  /// Names `stateType` in the recording, unless it already names one. A file that holds no
  /// action yet gets its header rewritten; once actions are written, the header stays.
  func begin(stateType name: String) {
    var failure: RecordingError?
    lock.lock()
    if stateType == nil {
      if let path {
        if !failed && bytesWritten == headerSize {
          stateType = name
          let header = Array((ActionRecording.headerLine(stateType: name) + "\n").utf8)
          do {
            try SecureFiles.truncate(descriptor, path: path)
            try SecureFiles.writeAll(header, to: descriptor, path: path)
            bytesWritten = header.count
            headerSize = header.count
          } catch {
            failed = true
            failure = .writeFailed(path: path, reason: error.description)
          }
        }
      } else if actions.isEmpty {
        stateType = name
      }
    }
    lock.unlock()
    if let failure { onError(failure) }
  }

  /// Records `action`.
  public func record(_ action: any Action) {
    let line: [UInt8]
    do {
      line = try ActionRecording.line(
        for: action, registry: registry, encoder: encoder, limits: limits, redaction: redaction)
    } catch {
      lock.withLock { skipped.append(String(describing: type(of: action))) }
      onError(error)
      return
    }
    var failure: RecordingError?
    lock.lock()
    if let path {
      if bytesWritten + line.count > limits.maximumFileSize {
        let typeName = String(describing: type(of: action))
        skipped.append(typeName)
        failure = .unreplayable(
          type: typeName,
          reason: ActionRecording.sizeReason(bytesWritten + line.count, limits: limits))
      } else if !failed {
        do {
          try SecureFiles.writeAll(line, to: descriptor, path: path)
          bytesWritten += line.count
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
    lock.lock()
    defer { lock.unlock() }
    var recording = ActionRecording(actions)
    recording.stateType = stateType
    return recording
  }

  /// The type names of actions that could not be recorded, in order.
  public var skippedTypes: [String] {
    lock.withLock { skipped }
  }

  /// Writes the recording file through to disk (`fsync`); each action is already handed to
  /// the system as it is recorded. Does nothing for a recorder in memory.
  public func flush() {
    lock.withLock { SecureFiles.syncDescriptor(descriptor) }
  }

  /// Syncs the recording file to disk.
  @available(*, deprecated, renamed: "flush()")
  public func sync() {
    flush()
  }
}
