import Dispatch

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Saves a store's state to a file, atomically and at most once per interval, and restores it
/// at the next start.
///
/// ```swift
/// let persistence = StatePersistence<AppState>(url: stateURL, schemaVersion: 3)
/// let restored = try persistence.restore(initialState: AppState(), recovery: .startFresh)
/// let store = Store(reducer: app, state: restored.state, plugins: [persistence])
/// // … before the app exits:
/// try persistence.flush()   // or try store.flushPlugins()
/// ```
///
/// The three steps can't be half-done silently: installing a persistence whose file exists
/// without restoring it first (its first save would overwrite the saved state), and flushing
/// one that was never installed (nothing would ever be saved), stop the program with a message
/// that names the missing step.
///
/// ## Writing
///
/// Each save replaces the file atomically: the state is written to an owner-only (0600)
/// temporary file in the same directory, synced, renamed over the file, and the directory is
/// synced. A crash or a failed write at any point leaves either the previous file or the new
/// one, never a mix; temporary files left by a crash are removed by the next restore.
///
/// Saves are throttled: the first change is written at once (on the scheduler), later changes
/// at most once per `interval`, and the last state is always written eventually. ``flush()``
/// writes the latest state now. Write failures are reported to `onError` (and thrown by
/// `flush`). A state whose write failed stays pending unless a newer one arrived: the throttle
/// retries it once per interval (up to three attempts in a row, then it waits for the next
/// change), and ``flush()`` writes it, or throws if it still can't. Nothing is lost while the
/// file can't be written, as long as the app flushes before it exits.
///
/// A state that restoring would refuse (larger or more deeply nested than `limits`) is never
/// written: ``PersistenceError/unrestorable(path:reason:)``.
///
/// ## The file
///
/// One JSON object: `{"format":"reactorkit.state","version":1,"schema":<schemaVersion>,
/// "state":{…}}`. `version` is the file format's version, `schema` the app's version of its
/// `State` type: bump `schemaVersion` when a change to `State` makes old files undecodable.
///
/// ## Migrations
///
/// With a ``StateMigration`` for each version bump (`migrations:`), a file of an older schema
/// is moved to the app's version on restore: the steps from the file's version run in order,
/// once, on the decoded JSON or from an old `Codable` type. The original file is first kept
/// aside as `<file>.schema-<version>-<timestamp>`, then the migrated state is saved over the
/// file, and only then is the copy removed (if saving fails, the copy stays and the store's
/// next write saves the migrated state). A step that throws, or a result that does not decode
/// as `State`, is ``PersistenceError/migrationFailed(path:from:to:reason:)``: the file is
/// left in place, untouched. A file of an older schema without a step for each version is
/// ``PersistenceError/incompatibleSchema(path:found:expected:movedTo:)``.
///
/// A file written by a newer version of the app (a higher `schema`) is
/// ``PersistenceError/newerSchema(path:found:supported:)``: it is left in place, and this
/// persistence never writes over it (saves and flushes fail with the same error), so an older
/// app can't destroy what a newer one saved. Migration failures block writes the same way.
///
/// ## Restoring
///
/// A missing file means the initial state. A file that is too large, too deeply nested,
/// empty, truncated, not JSON, of another format version or of an older schema version with
/// no migration, or whose state doesn't decode is a ``PersistenceError``: the file is moved aside to `<file>.corrupt-<timestamp>`
/// (never overwritten), and the ``RecoveryPolicy`` decides between throwing and starting from
/// the initial state. Size and nesting are checked before anything is decoded, so a hostile
/// file cannot exhaust memory or the stack; nothing on this path traps.
///
/// > Important: The state is written as it is, secrets included (the file is owner-only):
/// > restoring needs the real values. Keep secrets that must not rest on disk out of the
/// > persisted state, or in the platform's keychain.
///
/// Two processes may share one state file: temporary file names carry the writer's process
/// id, `restore` removes only those of processes that are no longer running, and a bad file is
/// moved aside with a rename that never replaces an existing file.
///
/// ## Threading
///
/// All methods are thread-safe. Encoding and writing run on `scheduler` (a background serial
/// queue by default), or on the caller's thread in ``flush()`` and ``save(_:)``; writes never
/// overlap, and an older state never replaces a newer one.
public final class StatePersistence<State: Codable & Sendable>: @unchecked Sendable {
  // Safety: `pending`, `generation`, `isWindowOpen`, `inFlight`, `failedAttempts` and
  // `abandonedGeneration` are guarded by `lock`;
  // `lastWrittenGeneration` and `failNextWrite` by `writeLock`, which is held only around
  // file-system calls. The other properties are immutable.
  /// The state file.
  public let url: URL
  /// The app's version of its `State` type, stored in and checked against the file.
  public let schemaVersion: Int
  /// The steps from older schema versions, by the version each reads.
  private let migrations: [Int: StateMigration]
  private let path: String
  private let interval: RxTimeInterval
  private let scheduler: SchedulerType
  private let limits: LoadingLimits
  private let onError: @Sendable (PersistenceError) -> Void

  private let lock = Lock()
  private let idle = Condition()
  private var pending: (state: State, generation: UInt64)?
  private var generation: UInt64 = 0
  private var isWindowOpen = false
  private var inFlight = 0
  /// How many background writes of the pending state failed in a row.
  private var failedAttempts = 0
  /// States up to this generation are superseded by a ``save(_:)`` and never put back.
  private var abandonedGeneration: UInt64 = 0
  /// How many times the throttle tries a state whose write keeps failing before it waits for
  /// the next change or ``flush()``.
  static var retryLimit: Int { 3 }

  /// Whether ``restore(initialState:recovery:)`` ran.
  private var hasRestored = false
  /// Whether states reach the persistence: installed in a store, attached, or given states
  /// by ``submit(_:)`` or ``save(_:)``.
  private var isConnected = false

  private let writeLock = Lock()
  private var lastWrittenGeneration: UInt64 = 0
  private var failNextWrite: SecureFiles.WriteStage?
  /// Why the file must not be written: a newer schema's, or one a migration failed on.
  private var writeRefusal: PersistenceError?

  /// The version of the file format this library writes and reads.
  public static var formatVersion: Int { 1 }
  private static var formatName: String { "reactorkit.state" }

  /// Creates a persistence for the state file at `url`.
  ///
  /// - Parameters:
  ///   - url: The state file. Its directory must exist.
  ///   - schemaVersion: The app's version of its `State` type (see the type's discussion).
  ///   - migrations: How to move files of older schema versions to `schemaVersion`, one step
  ///     per version (see the type's discussion). Each step reads a version below
  ///     `schemaVersion`, and no two read the same one.
  ///   - interval: The shortest time between two writes; one second by default.
  ///   - scheduler: Where throttled writes run; a background serial queue by default. Use a
  ///     `TestScheduler` in tests.
  ///   - limits: Bounds on the file when restoring; a state that would exceed them is not
  ///     saved (``PersistenceError/unrestorable(path:reason:)``).
  ///   - onError: Called with each failed background write, on the thread that wrote.
  public init(
    url: URL, schemaVersion: Int = 1, migrations: [StateMigration] = [],
    interval: RxTimeInterval = .seconds(1),
    scheduler: SchedulerType = SerialDispatchQueueScheduler(
      qos: .utility, internalSerialQueueName: "ReactorKit.StatePersistence"),
    limits: LoadingLimits = .default,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in }
  ) {
    self.url = url
    self.schemaVersion = schemaVersion
    var steps: [Int: StateMigration] = [:]
    for migration in migrations {
      precondition(
        migration.fromVersion < schemaVersion,
        "StatePersistence(\(url.fileSystemPath)): a migration from schema version "
          + "\(migration.fromVersion) in a persistence of schema version \(schemaVersion); each "
          + "step reads a version below schemaVersion.")
      precondition(
        steps.updateValue(migration, forKey: migration.fromVersion) == nil,
        "StatePersistence(\(url.fileSystemPath)): two migrations from schema version "
          + "\(migration.fromVersion); declare one step per version.")
    }
    self.migrations = steps
    self.path = url.fileSystemPath
    self.interval = interval
    self.scheduler = scheduler
    self.limits = limits
    self.onError = onError
  }

  // MARK: - Restoring

  /// Reads the saved state, or returns `initialState` when there is none.
  ///
  /// - Parameters:
  ///   - initialState: The state to start from without a (usable) file.
  ///   - recovery: What to do with a bad file; ``RecoveryPolicy/fail`` by default.
  /// - Returns: The state and where it came from.
  /// - Throws: ``PersistenceError``: ``PersistenceError/unreadable(path:reason:)``,
  ///   ``PersistenceError/newerSchema(path:found:supported:)`` and
  ///   ``PersistenceError/migrationFailed(path:from:to:reason:)`` whatever the policy
  ///   (starting fresh would later overwrite a file that may be fine; the file is left in
  ///   place and this persistence will not write over it); the other
  ///   problems only with ``RecoveryPolicy/fail``, or when the bad file could not be moved
  ///   aside.
  public func restore(initialState: @autoclosure () -> State, recovery: RecoveryPolicy = .fail)
    throws(PersistenceError) -> RestoredState<State>
  {
    lock.withLock { hasRestored = true }
    SecureFiles.removeStaleTemporaryFiles(for: path)
    let bytes: [UInt8]
    do {
      guard let read = try SecureFiles.read(path, maximumSize: limits.maximumFileSize) else {
        return RestoredState(state: initialState(), origin: .noFile)
      }
      bytes = read
    } catch {
      switch error {
      case .system(let failure):
        throw .unreadable(path: path, reason: failure.description)
      case .tooLarge(let size):
        return try recover(
          from: .tooLarge(
            path: path, size: size, limit: limits.maximumFileSize, movedTo: nil),
          policy: recovery, initialState: initialState)
      }
    }
    switch decode(bytes) {
    case .success(let state):
      return RestoredState(state: state, origin: .file)
    case .failure(.newerSchema(let path, let found, let supported)):
      throw refuseWrites(.newerSchema(path: path, found: found, supported: supported))
    case .failure(.migrationFailed(let path, let from, let to, let reason)):
      throw refuseWrites(.migrationFailed(path: path, from: from, to: to, reason: reason))
    case .failure(let problem):
      return try recover(from: problem, policy: recovery, initialState: initialState)
    case .migrated(let state, let from):
      saveMigrated(state, original: bytes, from: from)
      return RestoredState(state: state, origin: .file, migratedFrom: from)
    }
  }

  /// Makes every later write fail with `error` (the file must stay as it is); returns it.
  private func refuseWrites(_ error: PersistenceError) -> PersistenceError {
    writeLock.withLock { writeRefusal = error }
    return error
  }

  /// Keeps the original file aside, saves the migrated state over the file, then removes the
  /// copy. A failure is reported to `onError`; the copy then stays, and the store's next
  /// write saves the migrated state.
  private func saveMigrated(_ state: State, original: [UInt8], from version: Int) {
    let copy = "\(path).schema-\(version)-\(LogTimestamp.compact(Date()))"
    do throws(FileSystemError) {
      try SecureFiles.writeAtomically(original, to: copy)
    } catch {
      onError(
        .writeFailed(
          path: path,
          reason: "the original of schema version \(version) could not be kept aside: "
            + "\(error.description); the file is unchanged and the migration runs again at "
            + "the next start"))
      return
    }
    let next = lock.withLock { () -> UInt64 in
      generation += 1
      return generation
    }
    switch write(state, generation: next) {
    case .success:
      _ = FileSystemCalls.unlink(copy)
      SecureFiles.syncDirectory(SecureFiles.directoryPath(of: path))
    case .failure(let error):
      onError(error)
    }
  }

  private func recover(
    from problem: PersistenceError, policy: RecoveryPolicy, initialState: () -> State
  ) throws(PersistenceError) -> RestoredState<State> {
    let timestamp = LogTimestamp.compact(Date())
    guard
      let movedTo = try? SecureFiles.moveAside(path, suffix: "corrupt", timestamp: timestamp)
    else {
      throw problem.moved(to: nil)
    }
    let error = problem.moved(to: movedTo)
    switch policy {
    case .fail: throw error
    case .startFresh: return RestoredState(state: initialState(), origin: .recovered(error))
    }
  }

  private struct Header: Decodable {
    var format: String?
    var version: Int?
    var schema: Int?
  }

  private struct Envelope<Value: Codable>: Codable {
    var format: String
    var version: Int
    var schema: Int
    var state: Value
  }

  /// What a file decodes to.
  private enum Decoded {
    case success(State)
    /// Migrated from schema version `from`; not saved yet.
    case migrated(State, from: Int)
    case failure(PersistenceError)
  }

  private func decode(_ bytes: [UInt8]) -> Decoded {
    if JSONNesting.exceeds(limits.maximumNestingDepth, in: bytes[...]) {
      return .failure(
        .nestingTooDeep(path: path, limit: limits.maximumNestingDepth, movedTo: nil))
    }
    guard bytes.contains(where: { !Self.isWhitespace($0) }) else {
      return .failure(.corrupt(path: path, reason: "the file is empty", movedTo: nil))
    }
    let data = Data(bytes)
    let decoder = JSONDecoder()
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      return .failure(
        .corrupt(path: path, reason: "not valid JSON, or truncated", movedTo: nil))
    }
    guard header.format == Self.formatName, let version = header.version else {
      return .failure(
        .corrupt(
          path: path, reason: "not a ReactorKit state file (no \"format\": \"\(Self.formatName)\")",
          movedTo: nil))
    }
    guard version == Self.formatVersion else {
      return .failure(
        .unsupportedFormatVersion(
          path: path, found: version, supported: Self.formatVersion, movedTo: nil))
    }
    guard let schema = header.schema else {
      return .failure(.corrupt(path: path, reason: "no schema version", movedTo: nil))
    }
    guard schema <= schemaVersion else {
      return .failure(.newerSchema(path: path, found: schema, supported: schemaVersion))
    }
    guard schema == schemaVersion else { return migrate(data, from: schema) }
    do {
      return .success(try decoder.decode(Envelope<State>.self, from: data).state)
    } catch {
      return .failure(
        .undecodableState(path: path, reason: describeDecodingError(error), movedTo: nil))
    }
  }

  /// Runs the steps from `version` to ``schemaVersion`` on the file's state.
  private func migrate(_ data: Data, from version: Int) -> Decoded {
    let steps = (version..<schemaVersion).compactMap { migrations[$0] }
    guard steps.count == schemaVersion - version else {
      return .failure(
        .incompatibleSchema(path: path, found: version, expected: schemaVersion, movedTo: nil))
    }
    let decoder = JSONDecoder()
    var json: StateMigration.JSON
    do {
      json = try decoder.decode(Envelope<StateMigration.JSON>.self, from: data).state
    } catch {
      return .failure(
        .undecodableState(path: path, reason: describeDecodingError(error), movedTo: nil))
    }
    for step in steps {
      do {
        json = try step.run(json)
      } catch {
        return .failure(
          .migrationFailed(
            path: path, from: step.fromVersion, to: step.fromVersion + 1, reason: "\(error)"))
      }
    }
    do {
      return .migrated(
        try decoder.decode(State.self, from: JSONEncoder().encode(json)), from: version)
    } catch {
      return .failure(
        .migrationFailed(
          path: path, from: schemaVersion - 1, to: schemaVersion,
          reason: "the migrated state does not decode as \(State.self): "
            + describeDecodingError(error)))
    }
  }

  private static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  // MARK: - Saving

  /// Saves every new state of `store`, throttled; flushes when the store is freed.
  @available(
    *, deprecated,
    message:
      "Install the persistence when creating the store: 'Store(reducer:state:plugins: [persistence])'."
  )
  @discardableResult
  public func attach(to store: Store<State>) -> Disposable {
    checkRestoredBeforeSaving()
    return store.state.skip(1).subscribe(
      onNext: { [self] state in submit(state) },
      onCompleted: { [self] in flushReportingErrors() })
  }

  /// Flushes, reporting a failure to `onError`: what the store's end does.
  func flushReportingErrors() {
    do throws(PersistenceError) {
      try flush()
    } catch {
      onError(error)
    }
  }

  /// Stops the program when the persistence is connected to a store that was not started from
  /// the saved state: the store's first save would overwrite the file.
  func checkRestoredBeforeSaving() {
    let restored = lock.withLock { () -> Bool in
      isConnected = true
      return hasRestored
    }
    guard !restored, SecureFiles.permissions(of: path) != nil else { return }
    preconditionFailure(
      "StatePersistence(\(path)): installed in a store that was not started from "
        + "restore(initialState:recovery:), so its first save would overwrite the saved state. "
        + "Create the store with 'state: try persistence.restore(initialState:recovery:).state', "
        + "or remove the file to start over.")
  }

  /// Schedules `state` to be written, throttled (see the type's discussion).
  public func submit(_ state: State) {
    lock.lock()
    isConnected = true
    generation += 1
    pending = (state, generation)
    failedAttempts = 0
    let startsWindow = !isWindowOpen
    isWindowOpen = true
    lock.unlock()
    if startsWindow {
      _ = scheduler.schedule(self) { persistence in
        persistence.tick()
        return Disposables.create()
      }
    }
  }

  /// Writes the pending state, if any, and closes the throttle window when there is none (or
  /// when the pending state already failed ``retryLimit`` times in a row).
  private func tick() {
    lock.lock()
    guard let next = pending, failedAttempts < Self.retryLimit else {
      isWindowOpen = false
      lock.unlock()
      return
    }
    pending = nil
    inFlight += 1
    lock.unlock()
    let result = write(next.state, generation: next.generation)
    finishWrite(next, result: result)
    if case .failure(let error) = result { onError(error) }
    _ = scheduler.scheduleRelative(self, dueTime: interval) { persistence in
      persistence.tick()
      return Disposables.create()
    }
  }

  /// Ends a write: a failed state goes back to `pending` unless a newer one arrived meanwhile,
  /// and waiting flushes are woken when nothing is in flight.
  private func finishWrite(
    _ written: (state: State, generation: UInt64), result: Result<Void, PersistenceError>
  ) {
    lock.lock()
    // Only a failed write is worth retrying: a state that can't be encoded or restored won't
    // become writable by trying again.
    if case .failure(.writeFailed) = result, pending == nil,
      written.generation > abandonedGeneration
    {
      pending = written
      failedAttempts += 1
    }
    inFlight -= 1
    if inFlight == 0 { idle.broadcast() }
    lock.unlock()
  }

  /// Writes the pending state now, on the calling thread, after waiting for a write in progress
  /// on the scheduler to finish (a state whose background write failed is pending again, and
  /// written here).
  ///
  /// - Throws: ``PersistenceError`` when writing the pending state failed. The state then
  ///   stays pending: the next flush, or the next throttled write, tries again.
  /// - Precondition: The persistence is installed in a store (or was given states with
  ///   ``submit(_:)`` or ``save(_:)``): flushing one that nothing feeds would silently save
  ///   nothing.
  public func flush() throws(PersistenceError) {
    lock.lock()
    guard isConnected else {
      lock.unlock()
      preconditionFailure(
        "StatePersistence(\(path)).flush(): the persistence is not installed in a store, so "
          + "nothing is ever saved. Install it: 'Store(reducer:state:plugins: [persistence])'.")
    }
    while inFlight > 0 { idle.wait(lock) }
    let next = pending
    pending = nil
    if next != nil { inFlight += 1 }
    lock.unlock()
    var result: Result<Void, PersistenceError> = .success(())
    if let next {
      result = write(next.state, generation: next.generation)
      finishWrite(next, result: result)
    }
    lock.lock()
    while inFlight > 0 { idle.wait(lock) }
    lock.unlock()
    try result.get()
  }

  /// Writes `state` now, on the calling thread, bypassing the throttle; it replaces any
  /// pending state.
  ///
  /// - Throws: ``PersistenceError`` when the state could not be encoded or written.
  public func save(_ state: State) throws(PersistenceError) {
    lock.lock()
    isConnected = true
    generation += 1
    let current = generation
    pending = nil
    // An explicit save supersedes every earlier state, written or not.
    abandonedGeneration = current
    inFlight += 1
    lock.unlock()
    let result = write(state, generation: current)
    lock.lock()
    inFlight -= 1
    if inFlight == 0 { idle.broadcast() }
    lock.unlock()
    try result.get()
  }

  private func write(_ state: State, generation: UInt64) -> Result<Void, PersistenceError> {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let bytes: [UInt8]
    do {
      let envelope = Envelope(
        format: Self.formatName, version: Self.formatVersion, schema: schemaVersion,
        state: state)
      bytes = Array(try encoder.encode(envelope))
    } catch {
      return .failure(.encodingFailed(path: path, reason: describeEncodingError(error)))
    }
    if bytes.count > limits.maximumFileSize {
      return .failure(
        .unrestorable(
          path: path,
          reason:
            "the file would be \(bytes.count) bytes, and restoring accepts at most "
            + "\(limits.maximumFileSize) (LoadingLimits.maximumFileSize)"))
    }
    if JSONNesting.exceeds(limits.maximumNestingDepth, in: bytes[...]) {
      return .failure(
        .unrestorable(
          path: path,
          reason:
            "the file would nest JSON deeper than \(limits.maximumNestingDepth) levels, which "
            + "restoring refuses (LoadingLimits.maximumNestingDepth; the file's envelope is one "
            + "level, each enum case with a payload two)"))
    }
    writeLock.lock()
    defer { writeLock.unlock() }
    if let writeRefusal { return .failure(writeRefusal) }
    guard generation > lastWrittenGeneration else { return .success(()) }
    let failure = failNextWrite
    failNextWrite = nil
    do {
      try SecureFiles.writeAtomically(bytes, to: path, failAt: failure)
      lastWrittenGeneration = generation
      return .success(())
    } catch {
      return .failure(.writeFailed(path: path, reason: error.description))
    }
  }

  // MARK: - Testing

  /// Makes the next write fail at `stage`, as a crash or a full disk would (tests only).
  package func simulateFailureOfNextWrite(at stage: SecureFiles.WriteStage) {
    writeLock.withLock { failNextWrite = stage }
  }
}
