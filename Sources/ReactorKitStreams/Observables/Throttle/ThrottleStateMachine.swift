import Foundation

/// The state of one `throttle` subscription, as a value: each input returns what to do.
///
/// An element that arrives at least `dueTime` after the last emitted one is emitted at once
/// and opens a new window. Inside a window the latest element waits (when `latest` is set)
/// and is emitted when the window ends, opening the next window. Completion waits for a
/// waiting element; an error drops it.
struct ThrottleStateMachine<Element> {
  /// What to do after an element arrived.
  enum NextAction {
    /// Emit the element now.
    case emit(Element)
    /// Start the timer that ends the window after `delay` seconds.
    case startTimer(delay: Double, generation: UInt64)
    case none
  }

  /// What to do when the timer fired.
  enum TimerAction {
    case emit(Element, thenComplete: Bool)
    case complete
    case none
  }

  /// What to do when the source completed.
  enum CompletedAction {
    case complete
    /// Complete once the waiting element has been emitted; the source can be released.
    case waitForTimer
    case none
  }

  private let dueTime: Double
  private let latest: Bool
  private var lastEmitted: Date?
  private var waiting: Element?
  private var completionPending = false
  private var finished = false
  private var generation: UInt64 = 0

  init(dueTime: Double, latest: Bool) {
    self.dueTime = dueTime
    self.latest = latest
  }

  mutating func next(_ element: Element, now: Date) -> NextAction {
    guard !finished else { return .none }
    let remaining = lastEmitted.map { dueTime - now.timeIntervalSince($0) } ?? 0
    if remaining <= 0 {
      waiting = nil
      lastEmitted = now
      return .emit(element)
    }
    guard latest else { return .none }
    let timerRunning = waiting != nil
    waiting = element
    guard !timerRunning else { return .none }
    generation &+= 1
    return .startTimer(delay: remaining, generation: generation)
  }

  mutating func timerFired(generation fired: UInt64, now: Date) -> TimerAction {
    guard !finished, fired == generation else { return .none }
    let element = waiting
    waiting = nil
    if completionPending { finished = true }
    if let element {
      lastEmitted = now
      return .emit(element, thenComplete: completionPending)
    }
    return completionPending ? .complete : .none
  }

  mutating func completed() -> CompletedAction {
    guard !finished else { return .none }
    if waiting != nil {
      completionPending = true
      return .waitForTimer
    }
    finished = true
    return .complete
  }

  /// The source failed; returns whether the error is to be forwarded.
  mutating func failed() -> Bool {
    guard !finished else { return false }
    finished = true
    waiting = nil
    return true
  }
}
