import ReactorKit

extension ReactorTestStore where R.Mutation: Codable, R.State: Codable {
  /// Replays a `ReactorFlightRecorder`'s export and checks, mutation by mutation, that each
  /// state `reduce(state:mutation:)` produces matches the recording's checkpoint: a bug
  /// report from a reactor becomes a test.
  ///
  /// ```swift
  /// let recording = try ReactorRecording<ProfileReactor>(contentsOf: reportURL)
  /// let store = ReactorTestStore(reactor: ProfileReactor(api: FakeAPI()))
  /// store.replay(recording)  // fails at the first mutation that leads elsewhere
  /// ```
  ///
  /// The replay starts from the recording's start state (or, in a recording without one, from
  /// the state asserted so far, which must then match the recording's start) and reduces each
  /// recorded mutation with the reactor's `reduce(state:mutation:)`, without running `mutate`:
  /// the recording holds the mutations the reactor reduced, whatever produced them. The
  /// reactor's own state does not change. The first mutation whose state differs fails the
  /// test, naming the mutation, its number, the action before it and the paths that differ,
  /// and the replay stops there. A recording without checkpoints, or one whose start state
  /// is missing and differs, fails saying so. (A recording of another reactor type does not
  /// load: `ReactorRecording(contentsOf:)` throws, naming both types.)
  ///
  /// - Parameters:
  ///   - recording: A `ReactorFlightRecorder`'s export.
  ///   - fileID: The file ID of the call site, where failures are reported. Leave the default.
  ///   - filePath: The file path of the call site. Leave the default.
  ///   - line: The line of the call site. Leave the default.
  ///   - column: The column of the call site. Leave the default.
  public func replay(
    _ recording: ReactorRecording<R>, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let redacted = recording.redactedFieldNames, recording.start != nil else {
      reportFailure(
        site.failure(
          "The recording has no state checkpoints, so replaying it checks nothing: export it "
            + "from a ReactorFlightRecorder."))
      return
    }
    let redaction = LogRedaction(fieldNames: Set(redacted))
    var previous: R.State
    if let start = recording.startState {
      previous = start
    } else {
      skipReceivedMutations()
      previous = state
      guard StateCheckpoint.fingerprint(of: previous, redaction: redaction) == recording.start?.hash
      else {
        reportFailure(
          site.failure(
            "The recording holds no start state, and the reactor's state differs from the "
              + "one it started from: create the reactor in the recorded state."))
        return
      }
    }
    let total = recording.mutations.count
    var number = 0
    var lastAction = "no action"
    for event in recording.events {
      switch event {
      case .action(let text):
        lastAction = "action " + text
      case .mutation(let mutation, let checkpoint):
        number += 1
        let current = reactor.reduce(state: previous, mutation: mutation)
        defer { previous = current }
        guard let checkpoint else { continue }
        let actual = StateCheckpoint(of: current, previous: previous, redaction: redaction)
        guard actual.hash != checkpoint.hash else { continue }
        reportFailure(
          site.failure(
            replayDivergence(
              "Replaying mutation \(number) of \(total), \(renderValue(mutation)) (after "
                + "\(lastAction)),", checkpoint, actual, from: previous, to: current,
              redaction: redaction)))
        return
      }
    }
  }
}
