/// Why a recording could not be loaded, written or made. Every message names the file (or
/// the data's source), the line where relevant, and the problem.
public enum RecordingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but could not be read.
  case unreadable(path: String, reason: String)
  /// The file is larger than ``LoadingLimits/maximumFileSize``.
  case tooLarge(path: String, size: Int, limit: Int)
  /// A line nests JSON deeper than ``LoadingLimits/maximumNestingDepth``.
  case nestingTooDeep(path: String, line: Int, limit: Int)
  /// The recording is empty or its first line is not a recording header.
  case missingHeader(path: String)
  /// The recording was written in a newer (or unknown) version of the format.
  case unsupportedFormatVersion(path: String, found: Int, supported: Int)
  /// A line is not a JSON object with a `type` and an `action` (for example a truncated
  /// last line).
  case malformedLine(path: String, line: Int, reason: String)
  /// A line names an action type the registry does not know.
  case unknownActionType(path: String, line: Int, type: String)
  /// A line's action does not decode as its registered type.
  case undecodableAction(path: String, line: Int, type: String, reason: String)
  /// An action to write has a type that is not registered.
  case unregisteredAction(type: String)
  /// An action could not be encoded.
  case encodingFailed(type: String, reason: String)
  /// The recording could not be written.
  case writeFailed(path: String, reason: String)
  /// The last line (`length` bytes, without a newline) was cut off mid-write. Reported in
  /// ``ActionRecording/tornTail``, not thrown: the lines before it load.
  case tornLastLine(path: String, line: Int, length: Int)
  /// An action was not recorded (or a recording not written) because it could not be loaded
  /// back with the ``LoadingLimits`` it will be read with; `reason` names the limit.
  case unreplayable(type: String, reason: String)
  /// The recording was made from a store whose state type is `recorded`; it was replayed
  /// into one whose state type is `store`.
  case stateTypeMismatch(recorded: String, store: String)
  /// The recording was made from a reactor of type `recorded`; it was loaded as a recording
  /// of a reactor of type `expected`.
  case reactorTypeMismatch(recorded: String, expected: String)

  public var description: String {
    switch self {
    case .unreadable(let path, let reason):
      return "Cannot read the recording \(path): \(Self.ending(reason))"
    case .tooLarge(let path, let size, let limit):
      return "The recording \(path) is too large (\(size) bytes; the limit is \(limit))."
    case .nestingTooDeep(let path, let line, let limit):
      return "The recording \(path), line \(line), nests deeper than \(limit) levels."
    case .missingHeader(let path):
      return
        "The recording \(path) has no header: its first line must be "
        + "{\"format\":\"reactorkit.actions\",\"version\":\(ActionRecording.formatVersion)}."
    case .unsupportedFormatVersion(let path, let found, let supported):
      return
        "The recording \(path) has format version \(found); this version of ReactorKit reads "
        + "versions 1 to \(supported)."
    case .malformedLine(let path, let line, let reason):
      return "The recording \(path), line \(line), is malformed: \(Self.ending(reason))"
    case .unknownActionType(let path, let line, let type):
      return
        "The recording \(path), line \(line), has an action of type \"\(type)\", which is not "
        + "registered."
    case .undecodableAction(let path, let line, let type, let reason):
      return
        "The recording \(path), line \(line): the \(type) action does not decode: \(Self.ending(reason))"
    case .unregisteredAction(let type):
      return "Cannot record an action of type \(type): register it in the ActionRegistry."
    case .encodingFailed(let type, let reason):
      return "Cannot encode an action of type \(type): \(Self.ending(reason))"
    case .writeFailed(let path, let reason):
      return "Cannot write the recording \(path): \(Self.ending(reason))"
    case .tornLastLine(let path, let line, let length):
      return
        "The recording \(path), line \(line), was cut off mid-write (\(length) bytes without a "
        + "newline); the actions before it were loaded."
    case .unreplayable(let type, let reason):
      return
        "Cannot record an action of type \(type) so that it can be replayed: \(Self.ending(reason))"
    case .stateTypeMismatch(let recorded, let store):
      return
        "The recording was made from a store of state type \(recorded); it cannot replay into a "
        + "store of state type \(store)."
    case .reactorTypeMismatch(let recorded, let expected):
      return
        "The recording was made from a reactor of type \(recorded); it cannot be loaded as a "
        + "recording of \(expected)."
    }
  }

  /// `reason` as the end of a sentence: with one final period (a decoder's message may end
  /// with its own).
  static func ending(_ reason: String) -> String {
    var text = reason
    while text.hasSuffix(".") { text.removeLast() }
    return text + "."
  }
}
