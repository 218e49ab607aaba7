import Foundation
import ReactorKit

/// Turns the actions of one store still in the ring into an ``ActionRecording`` in its
/// JSON-lines form, with secret fields redacted by name (a redacted action no longer replays
/// exactly: the export is for sharing a session, and says so by leaving the secret out).
struct RecordingExporter {
  let core: InspectorCore
  let registry: ActionRegistry

  /// The recording, and how many actions were left out because their types aren't registered.
  func export(source name: String) -> (bytes: [UInt8], skipped: Int) {
    var actions: [any Action] = []
    var states: [Any] = []
    var start: Any?
    var previous: Any?
    var replayable = true
    var skipped = 0
    var cursor: UInt64 = 0
    while true {
      let batch = core.ring.events(after: cursor, limit: 1_024)
      guard let last = batch.events.last else { break }
      for event in batch.events where event.source.name == name {
        defer { if let after = event.after { previous = after } }
        guard event.kind == .action, event.source.kindName == "store" else {
          // A jump moves the state without an action: the states after it don't follow from
          // the actions, so the export has no checkpoints.
          if event.kind == .jump { replayable = false }
          continue
        }
        guard let action = event.value as? any Action else { continue }
        if registry.name(of: action) == nil {
          skipped += 1
          replayable = false
        } else if let after = event.after {
          if actions.isEmpty { start = previous }
          actions.append(action)
          states.append(after)
        }
      }
      cursor = last.sequence
    }
    var recording = ActionRecording(actions)
    recording.stateType = core.source(named: name)?.info.stateType
    if replayable, let start, !actions.isEmpty {
      recording.addCheckpoints(start: start, states: states, redaction: core.redaction)
    }
    guard let bytes = try? recording.jsonLines(registry: registry) else {
      recording.actions = []
      recording.checkpoints = []
      return (Array(((try? recording.jsonLines(registry: registry)) ?? [])), skipped)
    }
    return (redactLines(bytes), skipped)
  }

  /// Each line with the values of secret keys replaced (the header line has none).
  private func redactLines(_ bytes: [UInt8]) -> [UInt8] {
    let redaction = core.redaction
    guard !redaction.fieldNames.isEmpty || redaction.redactValue != nil else { return bytes }
    var output: [UInt8] = []
    for line in bytes.split(separator: UInt8(ascii: "\n")) {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line)),
        let data = try? JSONSerialization.data(
          withJSONObject: redact(object, redaction: redaction),
          options: [.sortedKeys, .withoutEscapingSlashes])
      else {
        output += line
        output.append(UInt8(ascii: "\n"))
        continue
      }
      output += Array(data)
      output.append(UInt8(ascii: "\n"))
    }
    return output
  }

  /// `value` with its secrets replaced as ``ActionRecording`` redacts a copy to share: a
  /// secret key's value whole when it is not an object or array, otherwise each string and
  /// number inside it.
  private func redact(_ value: Any, redaction: LogRedaction, secret: Bool = false) -> Any {
    if let object = value as? [String: Any] {
      var copy: [String: Any] = [:]
      for (key, inner) in object {
        let isSecret = redaction.isRedacted(key)
        let isContainer = inner is [String: Any] || inner is [Any]
        copy[key] =
          isSecret && (redaction.redactsWholeValues || !isContainer)
          ? redaction.replacement
          : redact(inner, redaction: redaction, secret: secret || isSecret)
      }
      return copy
    }
    if let array = value as? [Any] {
      return array.map { redact($0, redaction: redaction, secret: secret) }
    }
    if secret, value is String || (value is NSNumber && !Self.isBoolean(value)) {
      return redaction.replacement
    }
    return value
  }

  /// Whether a value from `JSONSerialization` is a JSON `true` or `false`: Foundation gives
  /// those as its boolean subclass of `NSNumber` (`__NSCFBoolean`, on Linux too).
  private static func isBoolean(_ value: Any) -> Bool {
    value is NSNumber && String(describing: type(of: value)).contains("Boolean")
  }
}
