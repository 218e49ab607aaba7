#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a reactor did, as a ``ReactorFlightRecorder`` exports it: the actions it received and
/// the mutations it reduced, in order, each mutation with a ``StateCheckpoint`` of the state
/// it produced, and the state before the first event.
///
/// A test replays it with `ReactorTestStore.replay(_:)` (ReactorKitTesting): each mutation is
/// reduced again and its state checked against the checkpoint.
///
/// ## Format
///
/// JSON lines, like an ``ActionRecording``. The header names the format, its version and the
/// reactor type, and holds the start state and its checkpoint:
/// `{"format":"reactorkit.reactor","reactor":"App.ProfileReactor","version":1,…}`. Each line
/// after it is an action, rendered as text with its secrets redacted (a reactor's actions
/// need not be `Codable`; they are there to read, not to replay), or a mutation as JSON with
/// its checkpoint: `{"action":"Action.save"}`, `{"mutation":{…},"checkpoint":{…}}`.
public struct ReactorRecording<R: Reactor> where R.Mutation: Codable, R.State: Codable {
  /// One thing the reactor did.
  public enum Event {
    /// An action the reactor received (after `transform(action:)`), as redacted text.
    case action(String)
    /// A mutation the reactor reduced, and the checkpoint of the state it produced.
    case mutation(R.Mutation, checkpoint: StateCheckpoint?)
  }

  /// The events, oldest first.
  public var events: [Event]
  /// The checkpoint of the state before the first event.
  public var start: StateCheckpoint?
  /// The field names the checkpoints leave out; `nil` for a recording without checkpoints.
  public var redactedFieldNames: [String]?
  /// The state before the first event, when the recording holds it.
  public var startState: R.State?
  /// The version of the library that made the recording (``ReactorKitLibrary/version``); this
  /// library's for a recording made here, `nil` for a loaded one whose header does not say.
  public var libraryVersion: String? = ReactorKitLibrary.version
  /// Set when the recording's last line was cut off mid-write: the events before it were
  /// loaded.
  public var tornTail: RecordingError?

  /// The name in the header's `format` member.
  public static var formatName: String { "reactorkit.reactor" }
  /// The format version this library writes and reads.
  public static var formatVersion: Int { 1 }

  /// The mutations, oldest first.
  public var mutations: [R.Mutation] {
    events.compactMap { if case .mutation(let mutation, _) = $0 { mutation } else { nil } }
  }

  /// Creates a recording of `events`.
  public init(_ events: [Event] = []) {
    self.events = events
  }

  /// Loads a recording file.
  ///
  /// - Throws: ``RecordingError``: among others ``RecordingError/reactorTypeMismatch(recorded:expected:)``
  ///   for a recording of another reactor type, and
  ///   ``RecordingError/undecodableAction(path:line:type:reason:)`` for a mutation that does
  ///   not decode.
  public init(contentsOf url: URL, limits: LoadingLimits = .default) throws(RecordingError) {
    let path = url.fileSystemPath
    let bytes = try ActionRecording.readFile(path, limits: limits)
    try self.init(jsonLines: bytes, limits: limits, source: path)
  }

  /// Decodes a recording from its JSON-lines form.
  ///
  /// - Parameters:
  ///   - bytes: The recording's bytes.
  ///   - limits: Bounds on the data.
  ///   - source: What error messages call the data (a path, a URL).
  /// - Throws: ``RecordingError``.
  public init(jsonLines bytes: [UInt8], limits: LoadingLimits = .default, source: String = "(data)")
    throws(RecordingError)
  {
    guard bytes.count <= limits.maximumFileSize else {
      throw .tooLarge(path: source, size: bytes.count, limit: limits.maximumFileSize)
    }
    let decoder = JSONDecoder()
    events = []
    var sawHeader = false
    var lineNumber = 0
    var start = bytes.startIndex
    while start < bytes.endIndex {
      let bounds = ActionRecording.nextLine(in: bytes, from: start)
      start = bounds.newline.map { $0 + 1 } ?? bytes.endIndex
      lineNumber += 1
      let trimmed = bytes[bounds.trimmed]
      if trimmed.isEmpty { continue }
      if JSONNesting.exceeds(limits.maximumNestingDepth, in: trimmed) {
        throw .nestingTooDeep(path: source, line: lineNumber, limit: limits.maximumNestingDepth)
      }
      let data = Data(trimmed)
      guard sawHeader else {
        try readHeader(data, decoder: decoder, source: source)
        sawHeader = true
        continue
      }
      guard let line = try? decoder.decode(LineEnvelope.self, from: data) else {
        // A last line without its newline that is not JSON was cut off mid-write: keep the
        // events before it. Any other bad line is an error.
        if bounds.newline == nil, (try? decoder.decode(JSONValue.self, from: data)) == nil {
          tornTail = .tornLastLine(path: source, line: lineNumber, length: trimmed.count)
          return
        }
        throw Self.malformed(source, lineNumber)
      }
      events.append(try Self.event(of: line, data, decoder, source: source, line: lineNumber))
    }
    guard sawHeader else { throw .missingHeader(path: source) }
  }

  /// The recording in its JSON-lines form.
  ///
  /// - Parameters:
  ///   - limits: The limits it will be loaded with: a recording they would reject is not
  ///     made.
  ///   - redaction: For a copy to share: the secret members of the mutations and of the start
  ///     state are replaced (see ``ActionRecording/jsonLines(registry:limits:redaction:)``); it
  ///     may then not replay.
  /// - Throws: ``RecordingError/encodingFailed(type:reason:)`` or
  ///   ``RecordingError/unreplayable(type:reason:)``.
  public func jsonLines(limits: LoadingLimits = .default, redaction: LogRedaction? = nil)
    throws(RecordingError) -> [UInt8]
  {
    let encoder = ActionRecording.lineEncoder()
    var bytes = try line(
      Header(
        format: Self.formatName, version: Self.formatVersion, library: libraryVersion,
        reactor: Self.reactorName, redacted: redactedFieldNames, start: start,
        startState: startState),
      member: "startState", encoder: encoder, limits: limits, redaction: redaction)
    for event in events {
      switch event {
      case .action(let text):
        bytes += try line(
          Line(action: text), member: nil, encoder: encoder, limits: limits, redaction: nil)
      case .mutation(let mutation, let checkpoint):
        bytes += try line(
          Line(mutation: mutation, checkpoint: checkpoint), member: "mutation",
          encoder: encoder, limits: limits, redaction: redaction)
      }
      if bytes.count > limits.maximumFileSize {
        throw .unreplayable(
          type: Self.reactorName, reason: ActionRecording.sizeReason(bytes.count, limits: limits))
      }
    }
    return bytes
  }

  /// Writes the recording to `url` atomically, owner-only (mode 0600).
  ///
  /// - Throws: ``RecordingError``.
  public func write(
    to url: URL, limits: LoadingLimits = .default, redaction: LogRedaction? = nil
  ) throws(RecordingError) {
    let bytes = try jsonLines(limits: limits, redaction: redaction)
    let path = url.fileSystemPath
    do {
      try SecureFiles.writeAtomically(bytes, to: path)
    } catch {
      throw .writeFailed(path: path, reason: error.description)
    }
  }

  // MARK: - Private

  static var reactorName: String { String(reflecting: R.self) }

  private typealias Header = RecordingHeader<R.State>

  private struct Line: Encodable {
    var action: String?
    var mutation: R.Mutation?
    var checkpoint: StateCheckpoint?
  }

  private mutating func readHeader(_ data: Data, decoder: JSONDecoder, source: String)
    throws(RecordingError)
  {
    guard let envelope = try? decoder.decode(HeaderEnvelope.self, from: data),
      envelope.format == Self.formatName, let version = envelope.version
    else { throw .missingHeader(path: source) }
    guard (1...Self.formatVersion).contains(version) else {
      throw .unsupportedFormatVersion(path: source, found: version, supported: Self.formatVersion)
    }
    if let recorded = envelope.reactor, recorded != Self.reactorName {
      throw .reactorTypeMismatch(recorded: recorded, expected: Self.reactorName)
    }
    let header: Header
    do {
      header = try decoder.decode(Header.self, from: data)
    } catch {
      throw .malformedLine(
        path: source, line: 1,
        reason: "the start state does not decode as \(String(reflecting: R.State.self)) "
          + "(\(describeDecodingError(error)))")
    }
    libraryVersion = header.library
    redactedFieldNames = header.redacted
    start = header.start
    startState = header.startState
  }

  /// The header's members that say what it is, read before the rest.
  private struct HeaderEnvelope: Decodable {
    var format: String?
    var version: Int?
    var reactor: String?
  }

  /// A line's members, the mutation still as JSON.
  private struct LineEnvelope: Decodable {
    var action: String?
    var mutation: JSONValue?
    var checkpoint: StateCheckpoint?
  }

  private struct MutationMember: Decodable {
    var mutation: R.Mutation
  }

  private static func malformed(_ source: String, _ line: Int) -> RecordingError {
    .malformedLine(
      path: source, line: line,
      reason: "expected a JSON object with an \"action\" text or a \"mutation\"")
  }

  private static func event(
    of line: LineEnvelope, _ data: Data, _ decoder: JSONDecoder, source: String,
    line number: Int
  ) throws(RecordingError) -> Event {
    if line.mutation != nil {
      do {
        let mutation = try decoder.decode(MutationMember.self, from: data).mutation
        return .mutation(mutation, checkpoint: line.checkpoint)
      } catch {
        throw .undecodableAction(
          path: source, line: number, type: String(reflecting: R.Mutation.self),
          reason: describeDecodingError(error))
      }
    }
    guard let action = line.action else { throw malformed(source, number) }
    return .action(action)
  }

  /// One line, with its newline: `value` encoded, its `member` redacted when a redaction is
  /// given, checked against the nesting limit it will be loaded with.
  private func line<Value: Encodable>(
    _ value: Value, member: String?, encoder: JSONEncoder, limits: LoadingLimits,
    redaction: LogRedaction?
  ) throws(RecordingError) -> [UInt8] {
    var data: Data
    do {
      data = try encoder.encode(value)
      if let redaction, let member {
        data = try RecordingRedaction.redact(data, with: redaction, member: member)
      }
    } catch {
      throw .encodingFailed(
        type: String(reflecting: Value.self), reason: describeEncodingError(error))
    }
    if JSONNesting.exceeds(limits.maximumNestingDepth, in: Array(data)[...]) {
      throw .unreplayable(
        type: Self.reactorName,
        reason: "a line would nest JSON deeper than \(limits.maximumNestingDepth) levels, "
          + "which loading refuses (LoadingLimits.maximumNestingDepth)")
    }
    return Array(data) + [UInt8(ascii: "\n")]
  }
}
