#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A sequence of store actions that can be saved as JSON lines, loaded back, and replayed into
/// a fresh store to reproduce a state.
///
/// The file format is JSON lines: a header line, then one line per action, named by its
/// ``ActionRegistry`` name:
///
/// ```text
/// {"format":"reactorkit.actions","version":1}
/// {"action":{"add":{"_0":"Milk"}},"type":"TodoAction"}
/// {"action":{"toggle":{"id":1}},"type":"TodoAction"}
/// ```
///
/// Record with an ``ActionRecorder``, then replay:
///
/// ```swift
/// let recording = try ActionRecording(contentsOf: url, registry: registry)
/// let store = Store(reducer: app, state: AppState())
/// recording.replay(into: store)          // store.currentState == the recorded session's
/// ```
///
/// Loading is bounded (``LoadingLimits``): the file size is checked before reading, each
/// line's nesting depth before decoding it, and only registered types are decoded. Bad input
/// is a ``RecordingError`` naming the line, never a crash.
public struct ActionRecording {
  /// The actions, in the order they were recorded.
  public var actions: [any Action]

  /// The version of the format this library writes and reads.
  public static var formatVersion: Int { 1 }
  static var formatName: String { "reactorkit.actions" }
  static var headerLine: String {
    "{\"format\":\"\(formatName)\",\"version\":\(formatVersion)}"
  }

  /// Creates a recording of `actions`.
  public init(_ actions: [any Action] = []) {
    self.actions = actions
  }

  // MARK: - Loading

  /// Loads the recording in the file at `url`.
  ///
  /// - Parameters:
  ///   - url: A recording written by ``write(to:registry:)`` or an ``ActionRecorder``.
  ///   - registry: The action types the recording may contain.
  ///   - limits: Bounds on the file.
  /// - Throws: ``RecordingError``.
  public init(contentsOf url: URL, registry: ActionRegistry, limits: LoadingLimits = .default)
    throws(RecordingError)
  {
    let path = url.fileSystemPath
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
    try self.init(jsonLines: bytes, registry: registry, limits: limits, source: path)
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
    var sawHeader = false
    var lineNumber = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      lineNumber += 1
      let trimmed = Self.trimmingWhitespace(line)
      if trimmed.isEmpty {
        if !sawHeader && lineNumber == 1 { throw .missingHeader(path: source) }
        continue
      }
      if JSONNesting.exceeds(limits.maximumNestingDepth, in: trimmed) {
        throw .nestingTooDeep(path: source, line: lineNumber, limit: limits.maximumNestingDepth)
      }
      let data = Data(trimmed)
      guard sawHeader else {
        try Self.checkHeader(data, decoder: decoder, source: source)
        sawHeader = true
        continue
      }
      actions.append(
        try Self.decodeAction(
          data, decoder: decoder, registry: registry, source: source, line: lineNumber))
    }
    guard sawHeader else { throw .missingHeader(path: source) }
    self.actions = actions
  }

  private struct Header: Decodable {
    var format: String?
    var version: Int?
  }

  private struct LineType: Decodable {
    var type: String
  }

  private static func checkHeader(_ data: Data, decoder: JSONDecoder, source: String)
    throws(RecordingError)
  {
    guard let header = try? decoder.decode(Header.self, from: data),
      header.format == formatName, let version = header.version
    else {
      throw .missingHeader(path: source)
    }
    guard version == formatVersion else {
      throw .unsupportedFormatVersion(path: source, found: version, supported: formatVersion)
    }
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

  private static func trimmingWhitespace(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var line = line
    while let first = line.first, first == 0x20 || first == 0x09 || first == 0x0D {
      line = line.dropFirst()
    }
    while let last = line.last, last == 0x20 || last == 0x09 || last == 0x0D {
      line = line.dropLast()
    }
    return line
  }

  // MARK: - Writing

  /// The recording in its JSON-lines form.
  ///
  /// - Throws: ``RecordingError/unregisteredAction(type:)`` for an action of a type the
  ///   registry doesn't know, or ``RecordingError/encodingFailed(type:reason:)``.
  public func jsonLines(registry: ActionRegistry) throws(RecordingError) -> [UInt8] {
    let encoder = Self.lineEncoder()
    var bytes = Array((Self.headerLine + "\n").utf8)
    for action in actions {
      bytes += try Self.line(for: action, registry: registry, encoder: encoder)
    }
    return bytes
  }

  /// Writes the recording to `url` atomically, owner-only (mode 0600).
  ///
  /// - Throws: ``RecordingError``.
  public func write(to url: URL, registry: ActionRegistry) throws(RecordingError) {
    let bytes = try jsonLines(registry: registry)
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

  /// One action line, with its newline.
  static func line(for action: any Action, registry: ActionRegistry, encoder: JSONEncoder)
    throws(RecordingError) -> [UInt8]
  {
    guard let entry = registry.entry(for: action) else {
      throw .unregisteredAction(type: String(describing: type(of: action)))
    }
    do {
      guard let data = try entry.encodeLine(action, encoder) else {
        throw RecordingError.unregisteredAction(type: String(describing: type(of: action)))
      }
      return Array(data) + [UInt8(ascii: "\n")]
    } catch let error as RecordingError {
      throw error
    } catch {
      throw .encodingFailed(
        type: String(describing: type(of: action)), reason: String(describing: error))
    }
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
  public func replay<State>(into store: Store<State>, throughMiddleware: Bool = false) {
    for action in actions {
      if throughMiddleware {
        store.dispatch(action)
      } else {
        store.reduceWithoutMiddleware(action)
      }
    }
  }
}

extension Store {
  /// Reduces `action` (and notifies subscribers) without running the middleware chain, with
  /// the same serialisation and waiting rules as `dispatch`.
  func reduceWithoutMiddleware(_ action: any Action) {
    submitContended(.reduce(action), tag: 0, continuation: nil)
  }
}
