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

  @inlinable
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
///
/// Who delivers is decided by ``gate``, an atomic word, so that a deliverer that finds nothing
/// queued stops without taking the lock again: `0` idle, ``delivering`` while someone
/// delivers, plus ``announced`` once work was queued for that deliverer. Work is queued, and the
/// gate moved from `0` or announced, only with the lock held; the deliverer leaves with one
/// compare-and-swap (`delivering` to `0`) and, when that fails, takes the lock and drains.
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  // Safety: `state` is only read or written with `lock` held; `gate` is atomic (see above).
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
    @usableFromInline var pending: [Work] = []
    @usableFromInline var pendingHead = 0

    @inlinable init() {}
  }

  @usableFromInline static var delivering: Int { 1 }
  @usableFromInline static var announced: Int { 2 }

  @usableFromInline let lock = Lock()
  @usableFromInline let state: UnsafeMutablePointer<State>
  @usableFromInline let gate = Atomic<Int>(0)

  @inlinable
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
    guard startDeliveringLocked() else {
      enqueueLocked(.all(event, entries))
      return
    }
    let targets = entries
    lock.unlock()
    Self.deliver(event, to: targets)
    finishDelivering()
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
    guard startDeliveringLocked() else {
      enqueueLocked(work)
      return
    }
    lock.unlock()
    deliver(work)
    finishDelivering()
  }

  /// Makes the caller the deliverer if nobody delivers. Call with the lock held.
  @inlinable
  func startDeliveringLocked() -> Bool {
    // With the lock held, only a deliverer leaving can change a non-zero gate, and nothing
    // changes a zero one.
    guard gate.load(ordering: .acquiring) == 0 else { return false }
    gate.store(Self.delivering, ordering: .relaxed)
    return true
  }

  /// Queues `work` for the deliverer and releases the lock; if the deliverer left meanwhile,
  /// the caller becomes the deliverer and drains. Call with the lock held.
  @inlinable
  func enqueueLocked(_ work: Work) {
    pending.append(work)
    while true {
      let current = gate.load(ordering: .acquiring)
      if current == 0 {
        // The deliverer left before seeing this work: deliver it here.
        gate.store(Self.delivering, ordering: .relaxed)
        drainPendingLocked()
        return
      }
      if current & Self.announced != 0 { break }
      let (exchanged, _) = gate.compareExchange(
        expected: Self.delivering, desired: Self.delivering | Self.announced,
        ordering: .acquiringAndReleasing)
      if exchanged { break }
    }
    lock.unlock()
  }

  /// Stops delivering, or delivers the work queued meanwhile. Called by the deliverer without
  /// the lock.
  @inlinable
  func finishDelivering() {
    let (exchanged, _) = gate.compareExchange(
      expected: Self.delivering, desired: 0, ordering: .acquiringAndReleasing)
    if exchanged { return }
    lock.lock()
    drainPendingLocked()
  }

  /// Delivers the queued work until the queue is empty, then stops delivering. Call with the
  /// lock held by the deliverer; the lock is released on return.
  @inlinable
  func drainPendingLocked() {
    while true {
      // Everything queued so far is taken here, under the lock; work queued from now on
      // announces itself again.
      gate.store(Self.delivering, ordering: .relaxed)
      while pendingHead < pending.count {
        let next = pending[pendingHead]
        pendingHead += 1
        lock.unlock()
        deliver(next)
        lock.lock()
      }
      pending.removeAll(keepingCapacity: pending.count <= 16)
      pendingHead = 0
      lock.unlock()
      let (exchanged, _) = gate.compareExchange(
        expected: Self.delivering, desired: 0, ordering: .acquiringAndReleasing)
      if exchanged { return }
      lock.lock()
    }
  }

  @inlinable
  func deliver(_ work: Work) {
    switch work {
    case .all(let event, let targets):
      Self.deliver(event, to: targets)
    case .one(let entry, let events):
      for event in events { entry.deliver(event) }
    case .many(let events, let targets):
      for event in events {
        Self.deliver(event, to: targets)
      }
    }
  }

  /// Delivers `event` to each of `targets`. The array keeps the entries alive, so they are
  /// visited without retaining each one.
  @inlinable
  static func deliver(_ event: Event<Element>, to targets: ContiguousArray<SubjectEntry<Element>>) {
    targets.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { $0.deliver(event) }
      }
    }
  }
}
