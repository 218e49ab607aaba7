/// A sink for operators whose state is touched from several threads (the source and
/// scheduler timers): the state lives behind a lock and the events a transition emits are
/// delivered afterwards, outside the lock, one at a time and in the order they were emitted.
///
/// A transition runs under the lock and may only compute: it records the events to deliver
/// with `emit` and returns the side effect (start a timer, subscribe elsewhere) for the
/// caller to perform once the lock is released. Whoever finds the outbox idle delivers it;
/// events emitted meanwhile (by another thread, or reentrantly by the observer) join the
/// queue instead of nesting, so the observer never sees two events at once.
@safe
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
  // Behind a pointer: no dynamic exclusivity checks on the hot path (the lock already gives
  // exclusive access), which also keeps the thread sanitizer's access tracking precise for
  // an empty `State`.
  private let storage: UnsafeMutablePointer<Storage>

  init(_ sink: Sink<Element>, state: State) {
    self.sink = sink
    unsafe storage = .allocate(capacity: 1)
    unsafe storage.initialize(to: Storage(state: state))
  }

  deinit {
    unsafe storage.deinitialize(count: 1)
    unsafe storage.deallocate()
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
    let effect = unsafe body(&storage.pointee.state) { emitted.append($0) }
    for event in emitted { unsafe storage.pointee.outbox.append(event) }
    let shouldDeliver = unsafe !storage.pointee.delivering && !storage.pointee.outbox.isEmpty
    if shouldDeliver { unsafe storage.pointee.delivering = true }
    lock.unlock()
    if shouldDeliver { deliverPending() }
    return effect
  }

  /// Reads the state under the lock.
  func read<T>(_ body: (State) -> T) -> T {
    lock.withLock { unsafe body(storage.pointee.state) }
  }

  private func deliverPending() {
    while true {
      lock.lock()
      guard let event = unsafe storage.pointee.outbox.popFirst() else {
        unsafe storage.pointee.delivering = false
        lock.unlock()
        return
      }
      lock.unlock()
      sink.forward(event)
    }
  }
}
