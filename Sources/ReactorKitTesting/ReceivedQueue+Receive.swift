import Foundation

/// How a test store names what it receives, in the failure messages of `receive`.
struct ReceivedNoun {
  /// That one arrived: "a mutation was reduced".
  let arrived: String
  /// That none arrived: "no mutation was reduced".
  let noneArrived: String

  /// ``ReactorTestStore``'s: the mutations the reactor reduced.
  static let mutation = ReceivedNoun(
    arrived: "a mutation was reduced", noneArrived: "no mutation was reduced")
  /// ``TestStore``'s: the actions that reached the reducer without being sent by the test.
  static let action = ReceivedNoun(
    arrived: "an action was received", noneArrived: "no action was received")
}

/// The loops of the test stores' `receive`: the elements received, oldest first, go to
/// `assertNext` until it returns `true` (the assertion is over: matched, or failed); `false`
/// (an element skipped, with exhaustivity off) asks for the next one. Each returns the
/// failure message when no element ended the assertion in time, `nil` otherwise; `hint` ends
/// a timeout's message (what is still running).
extension ReceivedQueue {
  /// The blocking loop: waits up to `timeout` seconds for each element.
  func receive(
    _ description: String, timeout: TimeInterval, noun: ReceivedNoun, hint: () -> String,
    _ assertNext: (Element) -> Bool
  ) -> String? {
    let deadline = Date().addingTimeInterval(timeout.isNaN ? 0 : min(timeout, 1e9))
    while let element = takeFirst(until: deadline) {
      if assertNext(element) { return nil }
    }
    let waited = timeout > 0 ? " within \(describe(seconds: timeout))" : ""
    return "Expected to receive \(description), but \(noun.noneArrived)\(waited)\(hint())."
  }

  /// The async loop: waits until `timeout` has passed, or the task is cancelled, without
  /// blocking the caller's actor.
  func receive(
    _ description: String, timeout: Duration, noun: ReceivedNoun, hint: () -> String,
    isolation: isolated (any Actor)? = #isolation, _ assertNext: (Element) -> Bool
  ) async -> String? {
    let deadline = ContinuousClock.now.advanced(by: max(timeout, .zero))
    while true {
      if let element = takeFirst() {
        if assertNext(element) { return nil }
        continue
      }
      if Task.isCancelled {
        return "Expected to receive \(description), but the test was cancelled before "
          + "\(noun.arrived)."
      }
      if ContinuousClock.now >= deadline {
        return "Expected to receive \(description), but \(noun.noneArrived) within "
          + "\(describe(seconds: seconds(of: timeout)))\(hint())."
      }
      await waitForElement(until: deadline)
    }
  }
}
