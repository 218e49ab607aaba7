/// The first line of a recording, an ``ActionRecording``'s or a ``ReactorRecording``'s: the
/// format and its version, the library that wrote it, what was recorded (a store's state type
/// or a reactor type), the field names the checkpoints leave out, and the start state with its
/// checkpoint. Members that are `nil` are left out of the line.
struct RecordingHeader<StartState: Codable>: Codable {
  var format: String?
  var version: Int?
  var library: String?
  /// The state type of a store's recording.
  var state: String?
  /// The reactor type of a reactor's recording.
  var reactor: String?
  var redacted: [String]?
  var start: StateCheckpoint?
  var startState: StartState?
}
