/// A sink for operators whose state is touched from several threads (the source and
/// scheduler timers): the state lives behind a lock and the events a transition emits are
/// delivered afterwards, outside the lock, one at a time and in the order they were emitted.
///
/// A transition runs under the lock and may only compute: it records the events to deliver
/// with `emit` and returns the side effect (start a timer, subscribe elsewhere) for the
/// caller to perform once the lock is released. Whoever finds the outbox idle delivers it;
/// events emitted meanwhile (by another thread, or reentrantly by the observer) join the
/// queue instead of nesting, so the observer never sees two events at once.
final class SerialSink<State, Element>: @unchecked Sendable {
  // Safety: `state`, `outbox`, `outboxHead` and `delivering` are guarded by `lock`; `sink` is
  // only called by the single thread that owns delivery at a time.
  let sink: Sink<Element>
  private let lock = Lock()
  private var state: State
  private var outbox: [Event<Element>] = []
  private var outboxHead = 0
  private var delivering = false

  init(_ sink: Sink<Element>, state: State) {
    self.sink = sink
    self.state = state
  }

  /// Runs `body` with the lock held, then delivers what it emitted.
  ///
  /// - Returns: What `body` returned: the side effect to perform now, without the lock.
  @discardableResult
  func transition<Effect>(
    _ body: (inout State, _ emit: (Event<Element>) -> Void) -> Effect
  ) -> Effect {
    lock.lock()
    let effect = body(&state) { outbox.append($0) }
    let shouldDeliver = !delivering && outboxHead < outbox.count
    if shouldDeliver { delivering = true }
    lock.unlock()
    if shouldDeliver { deliverPending() }
    return effect
  }

  /// Reads the state under the lock.
  func read<T>(_ body: (State) -> T) -> T {
    lock.withLock { body(state) }
  }

  private func deliverPending() {
    while true {
      lock.lock()
      guard outboxHead < outbox.count else {
        outbox.removeAll(keepingCapacity: outbox.count <= 16)
        outboxHead = 0
        delivering = false
        lock.unlock()
        return
      }
      let event = outbox[outboxHead]
      outboxHead += 1
      lock.unlock()
      sink.forward(event)
    }
  }
}
