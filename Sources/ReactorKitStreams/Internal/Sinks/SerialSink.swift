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
  // Safety: `storage` is only read or written with `lock` held; `sink` is only called by the
  // single thread that owns delivery at a time.
  private struct Storage {
    var state: State
    /// Events emitted and not yet delivered; each is released once delivered.
    var outbox = Queue<Event<Element>>()
    var delivering = false
  }

  let sink: Sink<Element>
  private let lock = Lock()
  // In an ``ExclusiveCell``: no dynamic exclusivity checks on the hot path (the lock already
  // gives exclusive access), which also keeps the thread sanitizer's access tracking precise
  // for an empty `State`.
  private let storage: ExclusiveCell<Storage>

  init(_ sink: Sink<Element>, state: State) {
    self.sink = sink
    storage = ExclusiveCell(Storage(state: state))
  }

  /// Runs `body` with the lock held, then delivers what it emitted.
  ///
  /// - Returns: What `body` returned: the side effect to perform now, without the lock.
  @discardableResult
  func transition<Effect>(
    _ body: (inout State, _ emit: (Event<Element>) -> Void) -> Effect
  ) -> Effect {
    lock.lock()
    var emitted: [Event<Element>] = []
    let effect = body(&storage.value.state) { emitted.append($0) }
    for event in emitted { storage.value.outbox.append(event) }
    let shouldDeliver = !storage.value.delivering && !storage.value.outbox.isEmpty
    if shouldDeliver { storage.value.delivering = true }
    lock.unlock()
    if shouldDeliver { deliverPending() }
    return effect
  }

  /// Reads the state under the lock.
  func read<T>(_ body: (State) -> T) -> T {
    lock.withLock { body(storage.value.state) }
  }

  private func deliverPending() {
    while true {
      lock.lock()
      guard let event = storage.value.outbox.popFirst() else {
        storage.value.delivering = false
        lock.unlock()
        return
      }
      lock.unlock()
      sink.forward(event)
    }
  }
}
