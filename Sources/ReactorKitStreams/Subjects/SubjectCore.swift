#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
///
/// The entry keeps its core alive (a retained reference in ``coreBits``) until it is disposed
/// or freed, so `dispose()` is safe however long it outlives the subject. This is no cycle
/// that outlives the subject: the subject's deinitialiser unregisters every observer.
@usableFromInline
final class SubjectEntry<Element>: Disposable, @unchecked Sendable {
  // Safety: `disposed` and `coreBits` are atomic; `observer` is immutable; the core
  // synchronises itself.
  /// The storage of ``disposed`` and ``coreBits``: ``AtomicSlot``s, so the first stored
  /// properties.
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @usableFromInline var coreSlot: AtomicSlot
  @usableFromInline let observer: AnyObserver<Element>
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(slot: 0, of: self) }
  /// The core, retained (`Unmanaged.passRetained`), until the entry is disposed; `0` after.
  @inlinable var coreBits: UnsafeAtomic<UInt> { UnsafeAtomic(slot: 1, of: self) }

  @inlinable
  init(_ observer: AnyObserver<Element>, core: SubjectCore<Element>) {
    self.observer = observer
    coreSlot = AtomicSlot(UInt(bitPattern: Unmanaged.passRetained(core).toOpaque()))
    Resources.incrementTotal()
  }

  deinit {
    let bits = coreBits.load(ordering: .acquiring)
    if let pointer = UnsafeRawPointer(bitPattern: bits) {
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
    Resources.decrementTotal()
  }

  @inlinable
  func deliver(_ event: Event<Element>) {
    if !disposed.load(ordering: .acquiring) { observer.on(event) }
  }

  @usableFromInline
  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let bits = coreBits.exchange(0, ordering: .acquiringAndReleasing)
    guard let pointer = UnsafeRawPointer(bitPattern: bits) else { return }
    let core = Unmanaged<SubjectCore<Element>>.fromOpaque(pointer).takeRetainedValue()
    core.operations(core, .remove, self)
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
///
/// A core made with `lockFreeNext` also delivers a `.next` event without the lock
/// (``publishNextIfIdle(_:)``): a caller that moves the gate from `0` to ``delivering`` with one
/// compare-and-swap delivers to ``State/published``, a copy of the observer list that only a
/// holder of the gate reads or writes. Whoever changes the list while nobody holds the gate
/// takes the gate for the change and updates the copy; while someone delivers, the change makes
/// a new list (the deliverer's copy stays intact) and announces itself, so the deliverer updates
/// the copy, under the lock, before it leaves.
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  // Safety: `state` is only read or written with `lock` held, except `state.published`, which
  // only the holder of the gate reads or writes; `gate` is atomic (see above); `body`,
  // `mutex`, `state` and `operations` are immutable.
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
    /// `entries` as of the last time nobody delivered: what a lock-free deliverer visits. The
    /// same array as `entries` whenever the gate is `0` (only in a `lockFreeNext` core).
    @usableFromInline var published = ContiguousArray<SubjectEntry<Element>>() {
      didSet { publishedEntries = published.withUnsafeBufferPointer { $0 } }
    }
    /// The elements of `published`, visited without retaining the array: `published` keeps
    /// them alive and is replaced, never changed in place.
    @usableFromInline var publishedEntries = UnsafeBufferPointer<SubjectEntry<Element>>(
      start: nil, count: 0)
    @usableFromInline var stopEvent: Event<Element>?
    /// The current value of a ``BehaviorSubject`` (`nil` in other subjects).
    @usableFromInline var current: Element?
    @usableFromInline var isDisposed = false
    @usableFromInline var pending: [Work] = []
    @usableFromInline var pendingHead = 0

    @inlinable init() {}
  }

  @usableFromInline static var delivering: Int { 1 }
  @usableFromInline static var announced: Int { 2 }

  /// What is done outside the per-element path, through a closure made in the (inlinable,
  /// hence specialised) initialiser, so that the unspecialised deinitialisers and `dispose()`
  /// of the entries run specialised code.
  @usableFromInline
  enum Operation {
    /// Unregisters the entry passed along.
    case remove
    /// Unregisters every observer (the subject is being freed).
    case detach
    /// Deinitialises and frees ``body`` (the core is being freed).
    case destroy
  }

  /// The storage of ``gate``; an ``AtomicSlot``, so the first stored property.
  @usableFromInline var gateSlot = AtomicSlot(0)
  /// One allocation holding the mutex, then the ``State``.
  @usableFromInline let body: UnsafeMutableRawPointer
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let state: UnsafeMutablePointer<State>
  @inlinable var gate: UnsafeAtomic<Int> { UnsafeAtomic(slot: 0, of: self) }
  /// Whether `.next` events may be delivered without the lock (see the type's comment).
  @usableFromInline let lockFreeNext: Bool
  @usableFromInline
  let operations: (SubjectCore<Element>, Operation, SubjectEntry<Element>?) -> Void

  /// Creates a core; with `lockFreeNext`, ``publishNextIfIdle(_:)`` may be used.
  @inlinable
  init(lockFreeNext: Bool = false) {
    self.lockFreeNext = lockFreeNext
    let stateAlignment = MemoryLayout<State>.alignment
    let stateOffset = aligned(MemoryLayout<pthread_mutex_t>.stride, to: stateAlignment)
    let body = UnsafeMutableRawPointer.allocate(
      byteCount: stateOffset + MemoryLayout<State>.stride,
      alignment: Swift.max(MemoryLayout<pthread_mutex_t>.alignment, stateAlignment))
    mutex = EmbeddedLock.initialize(at: body).mutex
    state = (body + stateOffset).initializeMemory(as: State.self, to: State())
    self.body = body
    operations = { core, operation, entry in
      switch operation {
      case .remove: if let entry { core.remove(entry) }
      case .detach: core.detach()
      case .destroy: core.destroyBody()
      }
    }
  }

  deinit {
    operations(self, .destroy, nil)
  }

  /// The lock guarding ``state``.
  @inlinable var lock: EmbeddedLock { EmbeddedLock(mutex) }

  @inlinable
  func destroyBody() {
    state.deinitialize(count: 1)
    lock.destroy()
    body.deallocate()
  }

  /// Unregisters every observer, without stopping the core. The subject's deinitialiser calls
  /// this (through ``operations``): the entries keep the core alive, the core no longer keeps
  /// them.
  @inlinable
  func detach() {
    lock.lock()
    let removed = modifyEntriesLocked { entries in
      let removed = entries
      entries = []
      return removed
    }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }

  @inlinable var entries: ContiguousArray<SubjectEntry<Element>> {
    get { state.pointee.entries }
    _modify { yield &state.pointee.entries }
  }

  /// Changes the observer list. Call with the lock held.
  ///
  /// In a `lockFreeNext` core, takes the gate when nobody holds it, so the change is made in
  /// place and copied to `published`; otherwise the change makes a new array (`published` keeps
  /// the deliverer's) and the deliverer is told to update `published` before it leaves.
  @inlinable
  func modifyEntriesLocked<Result>(
    _ body: (inout ContiguousArray<SubjectEntry<Element>>) -> Result
  ) -> Result {
    guard lockFreeNext else { return body(&state.pointee.entries) }
    if gate.compareExchange(expected: 0, desired: Self.delivering, ordering: .acquiring).exchanged {
      // Nobody delivers: drop the second reference so the change is made in place.
      state.pointee.published = []
      let result = body(&state.pointee.entries)
      state.pointee.published = state.pointee.entries
      gate.store(0, ordering: .releasing)
      return result
    }
    let result = body(&state.pointee.entries)
    announceLocked()
    return result
  }

  /// Whether `published` is the same array as `entries`. Call with the lock and the gate held.
  @inlinable
  var isPublishedCurrentLocked: Bool {
    let published = state.pointee.published.withUnsafeBufferPointer { $0.baseAddress }
    let entries = state.pointee.entries.withUnsafeBufferPointer { $0.baseAddress }
    return published == entries
      && state.pointee.published.count == state.pointee.entries.count
  }

  /// Makes the deliverer take the lock before it leaves (it then updates `published`); when
  /// the deliverer left meanwhile, updates `published` here. Call with the lock held.
  @inlinable
  func announceLocked() {
    while true {
      let current = gate.load(ordering: .acquiring)
      if current == 0 {
        guard
          gate.compareExchange(expected: 0, desired: Self.delivering, ordering: .acquiring)
            .exchanged
        else { continue }
        state.pointee.published = state.pointee.entries
        gate.store(0, ordering: .releasing)
        return
      }
      if current & Self.announced != 0 { return }
      if gate.compareExchange(
        expected: current, desired: current | Self.announced, ordering: .acquiringAndReleasing
      ).exchanged {
        return
      }
    }
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
    modifyEntriesLocked { $0.append(entry) }
    return entry
  }

  @inlinable
  func remove(_ entry: SubjectEntry<Element>) {
    lock.lock()
    modifyEntriesLocked { entries in
      let found = entries.withUnsafeBufferPointer { buffer -> Int? in
        for index in buffer.indices where buffer[index] === entry { return index }
        return nil
      }
      if let found { entries.remove(at: found) }
    }
    lock.unlock()
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
      modifyEntriesLocked { $0 = [] }
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
    modifyEntriesLocked { $0 = [] }
    enqueueAndDrainLocked(.many(events, targets))
  }

  /// Queues `events` for one observer only (used for replay on subscription). Call with the
  /// lock held; the lock is released on return.
  @inlinable
  func sendLocked(_ events: [Event<Element>], to entry: SubjectEntry<Element>) {
    enqueueAndDrainLocked(.one(entry, events))
  }

  /// Delivers `event` to one observer only (the current value, on subscription), without
  /// building a queued ``Work`` item when nobody is delivering. Call with the lock held; the
  /// lock is released on return.
  @inlinable
  func sendLocked(_ event: Event<Element>, to entry: SubjectEntry<Element>) {
    guard startDeliveringLocked() else {
      enqueueLocked(.one(entry, [event]))
      return
    }
    lock.unlock()
    entry.deliver(event)
    finishDelivering()
  }

  /// Stops the subject: later events are ignored. Call with the lock held.
  ///
  /// - Returns: The observers that were registered, for the caller to release after the lock:
  ///   releasing an observer can run user code (deinitialisers).
  @inlinable
  @discardableResult
  func disposeLocked() -> ContiguousArray<SubjectEntry<Element>> {
    isDisposed = true
    let removed = entries
    modifyEntriesLocked { $0 = [] }
    stopEvent = nil
    return removed
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
    if lockFreeNext {
      // A lock-free deliverer may take a zero gate at any time.
      return gate.compareExchange(
        expected: 0, desired: Self.delivering, ordering: .acquiringAndReleasing
      ).exchanged
    }
    // With the lock held, only a deliverer leaving can change a non-zero gate, and nothing
    // changes a zero one.
    guard gate.load(ordering: .acquiring) == 0 else { return false }
    gate.store(Self.delivering, ordering: .relaxed)
    return true
  }

  /// Delivers a `.next` event without the lock when nobody delivers, and returns `true`;
  /// returns `false` (having done nothing) when someone does. Only in a `lockFreeNext` core.
  ///
  /// After a terminal event or disposal the observer list is empty, so nothing is delivered.
  @inlinable
  func publishNextIfIdle(_ event: Event<Element>) -> Bool {
    guard
      gate.compareExchange(expected: 0, desired: Self.delivering, ordering: .acquiring).exchanged
    else { return false }
    // Holding the gate, this thread alone reads `published`; whoever changes the observer list
    // meanwhile leaves this array alone and alive.
    let buffer = state.pointee.publishedEntries
    for index in buffer.indices {
      Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { $0.deliver(event) }
    }
    finishDelivering()
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
        // The deliverer left before seeing this work: deliver it here (unless a lock-free
        // deliverer took the gate first).
        guard
          gate.compareExchange(
            expected: 0, desired: Self.delivering, ordering: .acquiringAndReleasing
          ).exchanged
        else { continue }
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
    // The observer lists `published` held before, released after the lock.
    var replaced: [ContiguousArray<SubjectEntry<Element>>] = []
    defer { withExtendedLifetime(replaced) {} }
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
      if lockFreeNext && !isPublishedCurrentLocked {
        // Holding the gate and the lock: bring the lock-free deliverers' list up to date.
        replaced.append(state.pointee.published)
        state.pointee.published = state.pointee.entries
      }
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
