import ReactorKitStreams

/// Forwards events to an observer on a scheduler, serially and in order, whatever thread
/// sends them; the private equivalent of `observe(on:)` for one subscription.
///
/// Events are queued under a lock and drained by one scheduled run at a time. After
/// ``dispose()`` nothing more is delivered.
final class ScheduledObserver<Element>: ObserverType, Disposable, @unchecked Sendable {
  // Safety: `queue`, `isScheduled` and `isDisposed` are guarded by `lock`; the observer is
  // called by one drain at a time, never with the lock held.
  private let lock = Lock()
  private var queue = FIFOQueue<Event<Element>>()
  private var isScheduled = false
  private var isDisposed = false
  private let scheduler: ImmediateSchedulerType
  private let observer: AnyObserver<Element>

  init(_ observer: AnyObserver<Element>, scheduler: ImmediateSchedulerType) {
    self.observer = observer
    self.scheduler = scheduler
  }

  func on(_ event: Event<Element>) {
    lock.lock()
    guard !isDisposed else {
      lock.unlock()
      return
    }
    queue.append(event)
    guard !isScheduled else {
      lock.unlock()
      return
    }
    isScheduled = true
    lock.unlock()
    _ = scheduler.schedule(self) { forwarder in
      forwarder.drain()
      return Disposables.create()
    }
  }

  private func drain() {
    lock.lock()
    while !isDisposed, let event = queue.popFirst() {
      lock.unlock()
      observer.on(event)
      if event.isStopEvent { dispose() }
      lock.lock()
    }
    isScheduled = false
    lock.unlock()
  }

  func dispose() {
    lock.lock()
    isDisposed = true
    queue = FIFOQueue()
    lock.unlock()
  }
}
