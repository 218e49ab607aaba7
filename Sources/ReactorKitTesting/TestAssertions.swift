import Foundation
import ReactorKit

/// The source location of a test store's assertion, where its failures are reported.
struct CallSite {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  func failure(_ message: String) -> TestStoreFailure {
    TestStoreFailure(
      message: message, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The failure message of a state assertion, or `nil` when it holds: the shared check of
/// ``TestStore`` and ``ReactorTestStore``.
///
/// With exhaustivity on, `updateExpected` turns the state asserted so far into the expected
/// state (no closure: no change); with it off, it edits the actual state, and only what it
/// changes is checked.
func stateAssertionFailure<State: Equatable>(
  asserted: State, actual: State, _ updateExpected: ((inout State) -> Void)?,
  exhaustivity: Exhaustivity, after event: String
) -> String? {
  var expected = exhaustivity == .on ? asserted : actual
  updateExpected?(&expected)
  guard expected != actual else { return nil }
  var lines = describeDifferences(expected: expected, actual: actual)
  if lines.isEmpty {
    lines = ["expected: \(expected)", "actual: \(actual)"]
  }
  let summary =
    updateExpected == nil && exhaustivity == .on
    ? "The state changed after \(event), but no change was expected"
    : "The state after \(event) does not match the expected state"
  return "\(summary) (\(counted(lines.count, "difference"))):\n"
    + lines.map { "  " + $0 }.joined(separator: "\n")
}

/// `number` with `noun`, plural unless it is one: "1 mutation", "2 mutations".
func counted(_ number: Int, _ noun: String) -> String {
  "\(number) \(noun)\(number == 1 ? "" : "s")"
}

/// `seconds` as words: "1 second", "0.5 seconds".
func describe(seconds: Double) -> String {
  let number =
    seconds == seconds.rounded() && abs(seconds) < 1e15
    ? String(Int(seconds)) : String(seconds)
  return "\(number) second\(seconds == 1 ? "" : "s")"
}

/// `duration` in seconds, as a `Double`.
func seconds(of duration: Duration) -> Double {
  Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// A deadline `timeout` seconds from now; NaN and negative timeouts are no wait, and waits
/// are capped at about 30 years (longer waits are the same to a test, and cannot overflow).
func deadline(afterSeconds timeout: TimeInterval) -> ContinuousClock.Instant {
  let seconds = timeout.isNaN ? 0 : max(min(timeout, 1e9), 0)
  return ContinuousClock.now.advanced(by: .seconds(seconds))
}

/// Waits until `isDone` or `deadline`, running the current run loop meanwhile (on the main
/// thread it serves the main queue, so work that is delivered there can end).
func waitBlocking(until deadline: ContinuousClock.Instant, _ isDone: () -> Bool) {
  while !isDone() && ContinuousClock.now < deadline {
    if !RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.002)) {
      Thread.sleep(forTimeInterval: 0.002)
    }
  }
}

/// Waits until `isDone`, `deadline` or the task's cancellation, without blocking the caller's
/// actor.
func waitSuspending(
  until deadline: ContinuousClock.Instant, isolation: isolated (any Actor)? = #isolation,
  _ isDone: () -> Bool
) async {
  while !isDone() && ContinuousClock.now < deadline && !Task.isCancelled {
    try? await Task.sleep(for: .milliseconds(2))
  }
}

/// The failure message of a replay whose step (`what`: "Replaying action 7 of 11, …,") led to
/// another state than the recording's checkpoint: the paths that changed in one and not the
/// other, and the values the replay's step set (the recording holds only a fingerprint).
func replayDivergence(
  _ what: String, _ expected: StateCheckpoint, _ actual: StateCheckpoint,
  from previous: Any, to current: Any, redaction: LogRedaction
) -> String {
  let recordedOnly = expected.changed.filter { !actual.changed.contains($0) }
  let replayedOnly = actual.changed.filter { !expected.changed.contains($0) }
  var lines = ["\(what) leads to another state than the recording's."]
  if !recordedOnly.isEmpty {
    lines.append(
      "  changed in the recording, not in the replay: " + recordedOnly.joined(separator: ", "))
  }
  if !replayedOnly.isEmpty {
    lines.append(
      "  changed in the replay, not in the recording: " + replayedOnly.joined(separator: ", "))
  }
  if recordedOnly.isEmpty && replayedOnly.isEmpty {
    let paths = actual.changed.isEmpty ? "(none)" : actual.changed.joined(separator: ", ")
    lines.append(
      "  the same paths changed (\(paths)), but not to the recorded values (or the states "
        + "already differed somewhere this step did not change)")
  }
  let values = valueDifferences(
    from: previous, to: current, render: renderValue,
    isRedacted: { redaction.isRedacted($0) }, skipsEqualValues: true, identifiesElements: true
  ).prefix(5).map { difference in
    switch difference.kind {
    case .changed(_, let new), .added(let new), .extraElement(let new):
      return "\(difference.path) = \(new)"
    case .removed, .missingElement:
      return "\(difference.path) removed"
    }
  }
  if !values.isEmpty {
    lines.append("  the replay set: " + values.joined(separator: ", "))
  }
  return lines.joined(separator: "\n")
}
