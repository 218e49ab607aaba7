import Synchronization

/// A type that is both an observable sequence and an observer feeding it.
public protocol SubjectType: ObservableType {
  /// The observer type that feeds the subject.
  associatedtype Observer: ObserverType
  /// The subject as an observer.
  func asObserver() -> Observer
}

/// One observer registered with a subject. Disposing it unregisters the observer; once
/// `dispose()` returns no further event starts, except one already being delivered on
/// another thread.
@usableFromInline
final class SubjectEntry<Element>: Disposable, @unchecked Sendable {
  // Safety: `disposed` is atomic; `observer` is immutable; `core` synchronises itself.
  @usableFromInline let observer: AnyObserver<Element>
  @usableFromInline let disposed = Atomic<Bool>(false)
  @usableFromInline weak var core: SubjectCore<Element>?

  @usableFromInline
  init(_ observer: AnyObserver<Element>, core: SubjectCore<Element>) {
    self.observer = observer
    self.core = core
    Resources.incrementTotal()
  }

  deinit { Resources.decrementTotal() }

  @inlinable
  func deliver(_ event: Event<Element>) {
    if !disposed.load(ordering: .acquiring) { observer.on(event) }
  }

  @usableFromInline
  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    core?.remove(self)
  }
}

/// The shared machinery of every subject: the observer list and serialised delivery.
///
/// Delivery is serial even when `on` is called from several threads at once: the first caller
/// becomes the deliverer and drains a FIFO queue; others (and reentrant calls from inside an
/// observer) enqueue and return. Observers are never called with the lock held.
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  // Safety: `state` is only read or written with `lock` held.
  @usableFromInline
  enum Work {
    case all(Event<Element>, ContiguousArray<SubjectEntry<Element>>)
    case one(SubjectEntry<Element>, [Event<Element>])
    case many([Event<Element>], ContiguousArray<SubjectEntry<Element>>)
  }

  /// The lock-guarded state. Kept behind a pointer so the hot path pays no dynamic
  /// exclusivity checks (the lock already gives exclusive access).
  @usableFromInline
  struct State {
    @usableFromInline var entries = ContiguousArray<SubjectEntry<Element>>()
    @usableFromInline var stopEvent: Event<Element>?
    @usableFromInline var isDisposed = false
    @usableFromInline var delivering = false
    @usableFromInline var pending: [Work] = []
    @usableFromInline var pendingHead = 0

    @inlinable init() {}
  }

  @usableFromInline let lock = Lock()
  @usableFromInline let state: UnsafeMutablePointer<State>

  @usableFromInline
  init() {
    state = .allocate(capacity: 1)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  @inlinable var entries: ContiguousArray<SubjectEntry<Element>> {
    get { state.pointee.entries }
    _modify { yield &state.pointee.entries }
  }
  @inlinable var stopEvent: Event<Element>? {
    get { state.pointee.stopEvent }
    set { state.pointee.stopEvent = newValue }
  }
  @inlinable var isDisposed: Bool {
    get { state.pointee.isDisposed }
    set { state.pointee.isDisposed = newValue }
  }
  @inlinable var delivering: Bool {
    get { state.pointee.delivering }
    set { state.pointee.delivering = newValue }
  }
  @inlinable var pending: [Work] {
    get { state.pointee.pending }
    _modify { yield &state.pointee.pending }
  }
  @inlinable var pendingHead: Int {
    get { state.pointee.pendingHead }
    set { state.pointee.pendingHead = newValue }
  }

  /// Whether anyone is subscribed. Call with the lock held.
  @inlinable
  var hasObserversLocked: Bool { !entries.isEmpty }

  /// Registers an observer. Call with the lock held.
  @inlinable
  func addLocked(_ observer: AnyObserver<Element>) -> SubjectEntry<Element> {
    let entry = SubjectEntry(observer, core: self)
    entries.append(entry)
    return entry
  }

  @inlinable
  func remove(_ entry: SubjectEntry<Element>) {
    lock.withLock {
      if let index = entries.firstIndex(where: { $0 === entry }) {
        entries.remove(at: index)
      }
    }
  }

  /// Records `event` for every current observer and delivers it. Call with the lock held; the
  /// lock is released on return. A terminal event unregisters every observer.
  ///
  /// The common case, a `.next` event while nobody is delivering, is delivered straight from
  /// here without building a queued ``Work`` item.
  @inlinable
  func publishLocked(_ event: Event<Element>) {
    if event.isStopEvent {
      let targets = entries
      stopEvent = event
      entries = []
      enqueueAndDrainLocked(.all(event, targets))
      return
    }
    if delivering {
      pending.append(.all(event, entries))
      lock.unlock()
      return
    }
    delivering = true
    let targets = entries
    lock.unlock()
    for entry in targets { entry.deliver(event) }
    lock.lock()
    if pendingHead == pending.count {
      delivering = false
      lock.unlock()
      return
    }
    drainPendingLocked()
  }

  /// Records `events` (the last one terminal) for every current observer and delivers them in
  /// order. Call with the lock held; the lock is released on return.
  @inlinable
  func publishTerminalSequenceLocked(_ events: [Event<Element>]) {
    let targets = entries
    stopEvent = events.last
    entries = []
    enqueueAndDrainLocked(.many(events, targets))
  }

  /// Queues `events` for one observer only (used for replay on subscription). Call with the
  /// lock held; the lock is released on return.
  @inlinable
  func sendLocked(_ events: [Event<Element>], to entry: SubjectEntry<Element>) {
    enqueueAndDrainLocked(.one(entry, events))
  }

  /// Stops the subject: later events are ignored. Call with the lock held.
  @inlinable
  func disposeLocked() {
    isDisposed = true
    entries = []
    stopEvent = nil
  }

  @inlinable
  func enqueueAndDrainLocked(_ work: Work) {
    if delivering {
      pending.append(work)
      lock.unlock()
      return
    }
    delivering = true
    lock.unlock()
    deliver(work)
    lock.lock()
    drainPendingLocked()
  }

  /// Delivers the queued work until the queue is empty, then stops delivering. Call with the
  /// lock held by the deliverer; the lock is released on return.
  @inlinable
  func drainPendingLocked() {
    while pendingHead < pending.count {
      let next = pending[pendingHead]
      pendingHead += 1
      lock.unlock()
      deliver(next)
      lock.lock()
    }
    pending.removeAll(keepingCapacity: pending.count <= 16)
    pendingHead = 0
    delivering = false
    lock.unlock()
  }

  @inlinable
  func deliver(_ work: Work) {
    switch work {
    case .all(let event, let targets):
      for entry in targets { entry.deliver(event) }
    case .one(let entry, let events):
      for event in events { entry.deliver(event) }
    case .many(let events, let targets):
      for event in events {
        for entry in targets { entry.deliver(event) }
      }
    }
  }
}
