/// The state of one `debounce` subscription, as a value: each input returns what to do.
///
/// Every element restarts the quiet-period timer; the timer that belongs to the latest
/// element (identified by its generation) emits it. Completion emits a waiting element
/// first; an error drops it.
struct DebounceStateMachine<Element> {
  enum State {
    case idle
    case waiting(Element)
    case finished
  }

  /// What to do after an element arrived.
  enum NextAction {
    /// Start the quiet-period timer for `generation`, replacing any running one.
    case startTimer(generation: UInt64)
    case none
  }

  private(set) var state: State = .idle
  private var generation: UInt64 = 0

  mutating func next(_ element: Element) -> NextAction {
    switch state {
    case .finished:
      return .none
    case .idle, .waiting:
      generation &+= 1
      state = .waiting(element)
      return .startTimer(generation: generation)
    }
  }

  /// The timer of `generation` fired; returns the element to emit, if still current.
  mutating func timerFired(generation fired: UInt64) -> Element? {
    guard case .waiting(let element) = state, fired == generation else { return nil }
    state = .idle
    return element
  }

  /// The source completed; returns the element to emit before completing, if one waits.
  mutating func completed() -> Element?? {
    switch state {
    case .finished:
      return nil
    case .idle:
      state = .finished
      return .some(nil)
    case .waiting(let element):
      state = .finished
      return .some(element)
    }
  }

  /// The source failed; returns whether the error is to be forwarded.
  mutating func failed() -> Bool {
    if case .finished = state { return false }
    state = .finished
    return true
  }
}
