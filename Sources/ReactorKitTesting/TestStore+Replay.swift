import ReactorKit

extension TestStore {
  /// Replays a `FlightRecorder`'s export and checks, action by action, that each state the
  /// store reaches matches the recording's checkpoint: a bug report becomes a test.
  ///
  /// ```swift
  /// let recording = try ActionRecording(contentsOf: reportURL, registry: registry)
  /// let store = TestStore(
  ///   reducer: AppState.reducer, state: try recording.startState(as: AppState.self)!)
  /// store.replay(recording)  // fails at the first action that leads elsewhere
  /// ```
  ///
  /// Each action is reduced without the store's middleware (the recording holds the actions
  /// as they reached the reducer, middleware-made ones included). The first action whose
  /// state differs from the recording's fails the test, naming the action, its number and
  /// the paths that differ, and the replay stops there. A recording of another state type, a
  /// recording without checkpoints (an `ActionRecorder`'s), or a test store that starts
  /// from another state than the recording fails with a message saying so; none passes
  /// silently. The replayed actions count as asserted.
  ///
  /// - Parameters:
  ///   - recording: A `FlightRecorder`'s export, loaded with
  ///     `ActionRecording(contentsOf:registry:)`.
  ///   - fileID: The file ID of the call site, where failures are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public func replay(
    _ recording: ActionRecording, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    func fail(_ message: String) {
      reportFailure(
        TestStoreFailure(
          message: message, fileID: fileID, filePath: filePath, line: line, column: column))
    }
    do {
      try recording.checkStateType(State.self)
    } catch {
      fail(error.description)
      return
    }
    guard let redacted = recording.redactedFieldNames,
      recording.checkpoints.count == recording.actions.count
    else {
      fail(
        "The recording has no state checkpoints, so replaying it checks nothing: export it from "
          + "a FlightRecorder (an ActionRecorder's recording holds only actions; replay one with "
          + "'recording.replay(into:)').")
      return
    }
    let redaction = LogRedaction(fieldNames: Set(redacted))
    acceptReductions()
    var previous = store.currentState
    if let start = recording.start,
      StateCheckpoint.fingerprint(of: previous, redaction: redaction) != start.hash
    {
      fail(
        "The test store starts from another state than the recording: create it with "
          + "'TestStore(reducer: …, state: try recording.startState(as: \(State.self).self)!)'.")
      return
    }
    let total = recording.actions.count
    for (index, action) in recording.actions.enumerated() {
      store.reduceWithoutMiddleware(action)
      acceptReductions()
      let current = store.currentState
      defer { previous = current }
      guard let expected = recording.checkpoints[index] else { continue }
      let actual = StateCheckpoint(of: current, previous: previous, redaction: redaction)
      guard actual.hash != expected.hash else { continue }
      fail(
        replayDivergence(
          "Replaying action \(index + 1) of \(total), \(renderValue(action)),", expected, actual,
          from: previous, to: current, redaction: redaction))
      return
    }
  }
}
