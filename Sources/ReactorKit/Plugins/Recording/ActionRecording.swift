#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A sequence of store actions that can be saved as JSON lines, loaded back, and replayed into
/// a fresh store to reproduce a state.
///
/// The file format is JSON lines: a header line naming the state type of the store it was
/// recorded from, then one line per action, named by its ``ActionRegistry`` name:
///
/// ```text
/// {"format":"reactorkit.actions","state":"TodosKit.TodoState","version":2}
/// {"action":{"add":{"_0":"Milk"}},"type":"TodoAction"}
/// {"action":{"toggle":{"id":1}},"type":"TodoAction"}
/// ```
///
/// Version 1 files (written before the header named the state type) load too; their
/// ``stateType`` is `nil`.
///
/// A ``FlightRecorder``'s export adds, in the header, the state before the first action
/// (`startState`, with its checkpoint `start`) and the secret field names its checkpoints
/// leave out (`redacted`), and on each action line the ``StateCheckpoint`` of the state the
/// action produced (`checkpoint`), which `TestStore.replay(_:)` checks.
///
/// Recordings hold the actions as they are, secrets included (the file is owner-only): a
/// replay needs the real values. To share one, write a redacted copy with
/// ``write(to:registry:limits:redaction:)``, knowing that it may no longer replay.
///
/// Record with an ``ActionRecorder``, then replay:
///
/// ```swift
/// let recording = try ActionRecording(contentsOf: url, registry: registry)
/// let store = Store(reducer: app, state: AppState())
/// try recording.replay(into: store)      // store.currentState == the recorded session's
/// ```
///
/// Loading is bounded (``LoadingLimits``): the file size is checked before reading, each
/// line's nesting depth before decoding it, and only registered types are decoded; lines are
/// walked in place, so memory stays within the file's size plus one line. Bad input is a
/// ``RecordingError`` naming the line, never a crash, with one exception: a last line without
/// its newline that doesn't decode was cut off mid-write, and loading returns the actions
/// before it and reports it in ``tornTail``.
public struct ActionRecording {
  /// The actions, in the order they were recorded.
  public var actions: [any Action]
  /// When the recording was loaded from a file whose last line was cut off mid-write (the app
  /// crashed, or the disk filled, while recording): a ``RecordingError/tornLastLine(path:line:length:)``
  /// naming that line. The actions before it were loaded; only that one is lost. `nil` when
  /// the file was complete.
  public var tornTail: RecordingError?
  /// The state type of the store the actions were recorded from, as
  /// `String(reflecting: State.self)` (for example `"TodosKit.TodoState"`), or `nil` when
  /// unknown (a version 1 file, or a recording made by ``ActionRecorder/record(_:)`` alone).
  /// ``replay(into:throughMiddleware:)`` refuses a store of another state type.
  public var stateType: String?
  /// The ``StateCheckpoint`` of the state each action produced, in the order of ``actions``
  /// (a ``FlightRecorder``'s export has them); empty when the recording has none.
  public var checkpoints: [StateCheckpoint?] = []
  /// The checkpoint of the state before the first action, when the recording has one.
  public var start: StateCheckpoint?
  /// The secret field names the checkpoints leave out (see ``StateCheckpoint``); `nil` when
  /// the recording has no checkpoints.
  public var redactedFieldNames: [String]?
  /// The state before the first action, as JSON, when the recording has it.
  var startState: JSONValue?
  /// The version of the library that made the recording (``ReactorKitLibrary/version``); this
  /// library's for a recording made here, `nil` for a loaded one whose header does not say.
  public var libraryVersion: String? = ReactorKitLibrary.version

  /// The version of the format this library writes; it reads this one and every earlier one.
  public static var formatVersion: Int { 2 }
  static var formatName: String { "reactorkit.actions" }

  /// The header line for a recording of a store whose state type is `stateType`.
  static func headerLine(stateType: String?) -> String {
    var recording = ActionRecording()
    recording.stateType = stateType
    return recording.headerLine()
  }

  /// This recording's header line; members it doesn't have are left out.
  func headerLine() -> String {
    let header = Header(
      format: Self.formatName, version: Self.formatVersion, library: libraryVersion,
      state: stateType, redacted: redactedFieldNames, start: start, startState: startState)
    // Strings, numbers and a JSON value always encode.
    return String(decoding: (try? Self.lineEncoder().encode(header)) ?? Data(), as: UTF8.self)
  }

  /// The state before the first action, decoded as `State`; `nil` when the recording does
  /// not hold it (only a ``FlightRecorder``'s export does).
  ///
  /// - Throws: The decoding error when it is not a `State`.
  public func startState<State: Decodable>(as _: State.Type) throws -> State? {
    guard let startState else { return nil }
    let data = try JSONEncoder().encode(startState)
    return try JSONDecoder().decode(State.self, from: data)
  }

  /// The name a recording gives the state type `State`.
  static func name<State>(of _: State.Type) -> String { String(reflecting: State.self) }

  /// Creates a recording of `actions`.
  ///
  /// - Parameters:
  ///   - actions: The actions, in order.
  ///   - stateType: The state type of the store they were dispatched to (see
  ///     ``stateType``); pass `AppState.self`.
  public init<State>(_ actions: [any Action] = [], stateType: State.Type) {
    self.actions = actions
    self.tornTail = nil
    self.stateType = Self.name(of: stateType)
  }

  /// Creates a recording of `actions` that names no state type: it replays into a store of
  /// any state type.
  public init(_ actions: [any Action] = []) {
    self.actions = actions
    self.tornTail = nil
    self.stateType = nil
  }

  // MARK: - Loading

  /// Loads the recording in the file at `url`.
  ///
  /// - Parameters:
  ///   - url: A recording written by ``write(to:registry:limits:redaction:)`` or an ``ActionRecorder``.
  ///   - registry: The action types the recording may contain.
  ///   - limits: Bounds on the file.
  /// - Throws: ``RecordingError``.
  public init(contentsOf url: URL, registry: ActionRegistry, limits: LoadingLimits = .default)
    throws(RecordingError)
  {
    let path = url.fileSystemPath
    let bytes = try Self.readFile(path, limits: limits)
    try self.init(jsonLines: bytes, registry: registry, limits: limits, source: path)
  }

  /// The bytes of the recording file at `path`, within `limits`.
  static func readFile(_ path: String, limits: LoadingLimits) throws(RecordingError) -> [UInt8] {
    let contents: [UInt8]?
    do {
      contents = try SecureFiles.read(path, maximumSize: limits.maximumFileSize)
    } catch {
      switch error {
      case .system(let failure): throw .unreadable(path: path, reason: failure.description)
      case .tooLarge(let size):
        throw .tooLarge(path: path, size: size, limit: limits.maximumFileSize)
      }
    }
    guard let bytes = contents else { throw .unreadable(path: path, reason: "no such file") }
    return bytes
  }

  /// Decodes a recording from its JSON-lines form.
  ///
  /// - Parameters:
  ///   - bytes: The recording's bytes.
  ///   - registry: The action types the recording may contain.
  ///   - limits: Bounds on the data.
  ///   - source: What error messages call the data (a path, a URL).
  /// - Throws: ``RecordingError``.
  public init(
    jsonLines bytes: [UInt8], registry: ActionRegistry, limits: LoadingLimits = .default,
    source: String = "(data)"
  ) throws(RecordingError) {
    guard bytes.count <= limits.maximumFileSize else {
      throw .tooLarge(path: source, size: bytes.count, limit: limits.maximumFileSize)
    }
    let decoder = JSONDecoder()
    var actions: [any Action] = []
    var checkpoints: [StateCheckpoint?] = []
    var header: Header?
    var sawHeader = false
    var lineNumber = 0
    var start = bytes.startIndex
    // Walk the lines in place: no slice array, so memory stays the file plus one line.
    while start < bytes.endIndex {
      let bounds = Self.nextLine(in: bytes, from: start)
      let newline = bounds.newline
      let line = bytes[start..<bounds.end]
      start = newline.map { $0 + 1 } ?? bytes.endIndex
      lineNumber += 1
      let trimmed = bytes[bounds.trimmed]
      if trimmed.isEmpty {
        if !sawHeader && lineNumber == 1 { throw .missingHeader(path: source) }
        continue
      }
      guard sawHeader else {
        if JSONNesting.exceeds(limits.maximumNestingDepth, in: trimmed) {
          throw .nestingTooDeep(path: source, line: lineNumber, limit: limits.maximumNestingDepth)
        }
        header = try Self.checkHeader(Data(trimmed), decoder: decoder, source: source)
        sawHeader = true
        continue
      }
      do throws(RecordingError) {
        if JSONNesting.exceeds(limits.maximumNestingDepth, in: trimmed) {
          throw .nestingTooDeep(path: source, line: lineNumber, limit: limits.maximumNestingDepth)
        }
        let data = Data(trimmed)
        actions.append(
          try Self.decodeAction(
            data, decoder: decoder, registry: registry, source: source, line: lineNumber))
        if header?.redacted != nil {
          checkpoints.append(try? decoder.decode(LineCheckpoint.self, from: data).checkpoint)
        }
      } catch {
        // A last line without its newline that is not even valid JSON was cut off mid-write
        // (a crash, a full disk): keep the complete lines before it and report it. Any other
        // bad line is an error (a line deeper than the limit too: recorders never write one).
        guard newline == nil, case .malformedLine = error,
          (try? decoder.decode(JSONValue.self, from: Data(trimmed))) == nil
        else { throw error }
        self.actions = actions
        self.tornTail = .tornLastLine(path: source, line: lineNumber, length: line.count)
        adopt(header, checkpoints: checkpoints)
        return
      }
    }
    guard sawHeader else { throw .missingHeader(path: source) }
    self.actions = actions
    adopt(header, checkpoints: checkpoints)
  }

  /// Takes the header's members and the lines' checkpoints.
  private mutating func adopt(_ header: Header?, checkpoints: [StateCheckpoint?]) {
    stateType = header?.state
    libraryVersion = header?.library
    redactedFieldNames = header?.redacted
    start = header?.start
    startState = header?.startState
    self.checkpoints = checkpoints
  }

  private typealias Header = RecordingHeader<JSONValue>

  private struct LineCheckpoint: Decodable {
    var checkpoint: StateCheckpoint?
  }

  private struct LineType: Decodable {
    var type: String
  }

  /// Checks the header line and returns the state type it names.
  private static func checkHeader(_ data: Data, decoder: JSONDecoder, source: String)
    throws(RecordingError) -> Header
  {
    guard let header = try? decoder.decode(Header.self, from: data),
      header.format == formatName, let version = header.version
    else {
      throw .missingHeader(path: source)
    }
    guard (1...formatVersion).contains(version) else {
      throw .unsupportedFormatVersion(path: source, found: version, supported: formatVersion)
    }
    return header
  }

  private static func decodeAction(
    _ data: Data, decoder: JSONDecoder, registry: ActionRegistry, source: String, line: Int
  ) throws(RecordingError) -> any Action {
    let type: String
    do {
      type = try decoder.decode(LineType.self, from: data).type
    } catch {
      throw .malformedLine(
        path: source, line: line,
        reason: "expected a JSON object with a \"type\" and an \"action\" "
          + "(\(describeDecodingError(error)))")
    }
    guard let entry = registry.entry(named: type) else {
      throw .unknownActionType(path: source, line: line, type: type)
    }
    do {
      return try entry.decodeLine(data, decoder)
    } catch {
      throw .undecodableAction(
        path: source, line: line, type: type, reason: describeDecodingError(error))
    }
  }

  /// The line starting at `start`: where it ends, where its newline is (`nil` for a last
  /// line without one), and its content without surrounding spaces, tabs and carriage returns.
  static func nextLine(in bytes: [UInt8], from start: Int) -> (
    end: Int, newline: Int?, trimmed: Range<Int>
  ) {
    var end = start
    while end < bytes.count, bytes[end] != 0x0A { end += 1 }
    var first = start
    var last = end
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }
    while first < last, isSpace(bytes[first]) { first += 1 }
    while last > first, isSpace(bytes[last - 1]) { last -= 1 }
    return (end, end < bytes.count ? end : nil, first..<last)
  }

  // MARK: - Writing

  /// The recording in its JSON-lines form.
  ///
  /// - Parameters:
  ///   - registry: The action types to encode.
  ///   - limits: The limits the recording will be loaded with: a recording they would reject
  ///     is not made.
  ///   - redaction: For a copy to share: every member of an action's JSON whose key is a
  ///     secret name (``LogRedaction/isRedacted(_:)``) gets the replacement string as its
  ///     value. `nil` (the default) writes the actions as they are.
  /// - Throws: ``RecordingError/unregisteredAction(type:)`` for an action of a type the
  ///   registry doesn't know, ``RecordingError/encodingFailed(type:reason:)``, or
  ///   ``RecordingError/unreplayable(type:reason:)`` when loading it back would fail. With a
  ///   `redaction`, the start state in the header (a ``FlightRecorder``'s export) is redacted
  ///   the same way.
  ///
  /// > Important: A redacted recording may not replay: a redacted value that is not a string
  /// > no longer decodes (loading reports ``RecordingError/undecodableAction(path:line:type:reason:)``),
  /// > and a redacted string replays as the replacement text, so the replayed state differs.
  public func jsonLines(
    registry: ActionRegistry, limits: LoadingLimits = .default, redaction: LogRedaction? = nil
  ) throws(RecordingError) -> [UInt8] {
    let encoder = Self.lineEncoder()
    var header = Data(headerLine().utf8)
    if let redaction, startState != nil {
      // The start state is shared with the actions: its secret members are replaced too.
      do {
        header = try RecordingRedaction.redact(header, with: redaction, member: "startState")
      } catch {
        throw .encodingFailed(type: "the start state", reason: describeEncodingError(error))
      }
    }
    var bytes = Array(header) + [UInt8(ascii: "\n")]
    let checkpointed = checkpoints.count == actions.count
    for (index, action) in actions.enumerated() {
      bytes += try Self.line(
        for: action, registry: registry, encoder: encoder, limits: limits, redaction: redaction,
        checkpoint: checkpointed ? checkpoints[index] : nil)
      if bytes.count > limits.maximumFileSize {
        throw .unreplayable(
          type: String(describing: type(of: action)),
          reason: Self.sizeReason(bytes.count, limits: limits))
      }
    }
    return bytes
  }

  /// Writes the recording to `url` atomically, owner-only (mode 0600).
  ///
  /// - Parameters:
  ///   - url: The file.
  ///   - registry: The action types to encode.
  ///   - limits: The limits the recording will be loaded with.
  ///   - redaction: For a copy to share (see ``jsonLines(registry:limits:redaction:)``, and
  ///     its caveat about replaying).
  /// - Throws: ``RecordingError``.
  public func write(
    to url: URL, registry: ActionRegistry, limits: LoadingLimits = .default,
    redaction: LogRedaction? = nil
  ) throws(RecordingError) {
    let bytes = try jsonLines(registry: registry, limits: limits, redaction: redaction)
    let path = url.fileSystemPath
    do {
      try SecureFiles.writeAtomically(bytes, to: path)
    } catch {
      throw .writeFailed(path: path, reason: error.description)
    }
  }

  static func lineEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }

  static func sizeReason(_ size: Int, limits: LoadingLimits) -> String {
    "the recording would be \(size) bytes, and loading accepts at most "
      + "\(limits.maximumFileSize) (LoadingLimits.maximumFileSize)"
  }

  /// One action line, with its newline, checked against the nesting limit it will be loaded
  /// with, and redacted when a redaction is given.
  static func line(
    for action: any Action, registry: ActionRegistry, encoder: JSONEncoder,
    limits: LoadingLimits, redaction: LogRedaction? = nil, checkpoint: StateCheckpoint? = nil
  ) throws(RecordingError) -> [UInt8] {
    let typeName = String(describing: type(of: action))
    guard let entry = registry.entry(for: action) else {
      throw .unregisteredAction(type: typeName)
    }
    var data: Data
    do {
      guard let encoded = try entry.encodeLine(action, encoder) else {
        throw RecordingError.unregisteredAction(type: typeName)
      }
      data = encoded
      if let redaction, !JSONNesting.exceeds(limits.maximumNestingDepth, in: Array(data)[...]) {
        data = try RecordingRedaction.redact(data, with: redaction)
      }
    } catch let error as RecordingError {
      throw error
    } catch {
      throw .encodingFailed(type: typeName, reason: describeEncodingError(error))
    }
    var line = Array(data)
    if let checkpoint, line.last == UInt8(ascii: "}"),
      let encoded = try? encoder.encode(checkpoint)
    {
      line.removeLast()
      line += Array(",\"checkpoint\":".utf8) + Array(encoded) + [UInt8(ascii: "}")]
    }
    if JSONNesting.exceeds(limits.maximumNestingDepth, in: line[...]) {
      throw .unreplayable(
        type: typeName,
        reason:
          "its line would nest JSON deeper than \(limits.maximumNestingDepth) levels, which "
          + "loading refuses (LoadingLimits.maximumNestingDepth; the line's envelope is one "
          + "level, each enum case with a payload two)")
    }
    line.append(UInt8(ascii: "\n"))
    return line
  }

  // MARK: - Replaying

  /// Replays the actions into `store`, in order, synchronously.
  ///
  /// By default each action is reduced directly, without running the store's middleware:
  /// a recording holds the actions as they reached the reducer (after middleware), so running
  /// middleware again could add actions or effects. Replaying into a store with the same
  /// reducer and initial state as the recorded one then reproduces its state exactly.
  ///
  /// - Parameters:
  ///   - store: The store to replay into.
  ///   - throughMiddleware: Whether to dispatch through the middleware chain instead (for
  ///     example to watch a replay with a logging middleware).
  /// - Throws: ``RecordingError/stateTypeMismatch(recorded:store:)``, before replaying any
  ///   action, when the recording names a state type other than `State`: its actions were
  ///   reduced by another app's reducer, and replaying them here would do nothing or the
  ///   wrong thing.
  public func replay<State>(into store: Store<State>, throughMiddleware: Bool = false)
    throws(RecordingError)
  {
    try checkStateType(State.self)
    for action in actions {
      if throughMiddleware {
        store.dispatch(action)
      } else {
        store.reduceWithoutMiddleware(action)
      }
    }
  }
}

extension ActionRecording {
  /// Throws ``RecordingError/stateTypeMismatch(recorded:store:)`` unless the recording names
  /// no state type or names `State`.
  public func checkStateType<State>(_: State.Type) throws(RecordingError) {
    let expected = Self.name(of: State.self)
    if let stateType, stateType != expected {
      throw .stateTypeMismatch(recorded: stateType, store: expected)
    }
  }
}

extension Store {
  /// Reduces `action` (and notifies subscribers) without running the middleware chain, with
  /// the same serialisation and waiting rules as `dispatch`.
  package func reduceWithoutMiddleware(_ action: any Action) {
    submitContended(.reduce(action), tag: 0, continuation: nil)
  }
}
