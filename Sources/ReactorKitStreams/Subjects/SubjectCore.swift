import Dispatch

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

/// A subject that can let go of its observers without a terminal event, as it does when it is
/// freed: used when nothing can feed the subject any more (a connection's subject after its
/// source was freed).
@usableFromInline
protocol ObserverReleasing: AnyObject {
  associatedtype CoreElement
  /// The subject's state and observers.
  var core: SubjectCore<CoreElement> { get }
}

extension ObserverReleasing {
  /// Unregisters every observer and releases its subscription (see ``SubscriptionLink``).
  @inlinable
  func releaseObservers() { core.detachObservers() }
}

/// One observer registered with a subject. Disposing it unregisters the observer; once
/// `dispose()` returns no further event starts, except one already being delivered on
/// another thread.
///
/// The entry keeps its core alive (a retained reference in ``coreBits``) until it is disposed
/// or freed, so `dispose()` is safe however long it outlives the subject. This is no cycle
/// that outlives the subject: when the subject is freed or disposed it unregisters every
/// observer and releases each entry (``SubscriptionLink/releaseFromSource()``), so the
/// subscription holding the entry lets go of it and the entry, its observer and the
/// subscription are freed even when nobody kept the subscription's disposable.
@usableFromInline
final class SubjectEntry<Element>: SubscriptionLink, Disposable, @unchecked Sendable {
  // Safety: `disposed` and `coreBits` are atomic; `observer` is immutable; the core
  // synchronises itself.
  /// The storage of ``disposed`` and ``coreBits``: ``AtomicSlot``s, so the first stored
  /// properties after the link's (slot 0, see ``SubscriptionLink``): slots 1 and 2.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case disposed = 1
    case core
  }
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @usableFromInline var coreSlot: AtomicSlot
  @usableFromInline let observer: AnyObserver<Element>
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.disposed, of: self) }
  /// The core, retained (`Unmanaged.passRetained`), until the entry is disposed; `0` after.
  @inlinable var coreBits: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.core, of: self) }

  @inlinable
  init(_ observer: AnyObserver<Element>, core: SubjectCore<Element>) {
    self.observer = observer
    coreSlot = unsafe AtomicSlot(UInt(bitPattern: Unmanaged.passRetained(core).toOpaque()))
    super.init()
    Resources.incrementTotal()
  }

  deinit {
    let bits = coreBits.load(ordering: .acquiring)
    if let pointer = unsafe UnsafeRawPointer(bitPattern: bits) {
      unsafe Unmanaged<AnyObject>.fromOpaque(pointer).release()
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
    forgetHolder()
    let bits = coreBits.exchange(0, ordering: .acquiringAndReleasing)
    guard let pointer = unsafe UnsafeRawPointer(bitPattern: bits) else { return }
    let core = unsafe Unmanaged<SubjectCore<Element>>.fromOpaque(pointer).takeRetainedValue()
    core.operations(core, .remove, self)
  }
}

/// The shared machinery of every subject: the observer list and serialised delivery.
///
/// Delivery is serial even when `on` is called from several threads at once: the first caller
/// becomes the deliverer and drains a FIFO queue; others (and reentrant calls from inside an
/// observer) enqueue and return. Observers are never called with the lock held.
///
/// Who delivers is decided by ``gate``, the package's one ``Gate`` (its claim / announce /
/// release protocol and memory orderings are documented there), so that a deliverer that
/// finds nothing queued stops without taking the lock again: busy while someone delivers,
/// announced once work (or an observer-list change) was queued for that deliverer. Work is
/// queued, and the gate claimed or announced, only with the lock held; the deliverer leaves
/// with one unlocked release and, when that fails, takes the lock and drains.
///
/// The deliverer releases each queued item once delivered. After ``handOffThreshold`` items,
/// while more are queued, it asks for a hand-off (``HandOff``): the next sender on another
/// thread accepts, waits (without the lock) until the deliverer finished its current item and
/// stepped aside, keeping the gate for it, and drains in its place; a sender that waited
/// ``handOffPatience`` in vain withdraws and returns (the deliverer may be blocked on it,
/// through another subject). So no caller delivers for ever under sustained senders, and the
/// order is kept: one deliverer at a time, one queue.
///
/// A core made with `lockFreeNext` also delivers a `.next` event without the lock
/// (``publishNextIfIdle(_:)``): a caller that claims the idle gate with one compare-and-swap
/// delivers to ``State/published``, a copy of the observer list that only a
/// holder of the gate reads or writes. Whoever changes the list while nobody holds the gate
/// takes the gate for the change and updates the copy; while someone delivers, the change makes
/// a new list (the deliverer's copy stays intact) and announces itself, so the deliverer updates
/// the copy, under the lock, before it leaves.
@safe
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
  @safe
  @usableFromInline
  struct State {
    @usableFromInline var entries = ContiguousArray<SubjectEntry<Element>>()
    /// `entries` as of the last time nobody delivered: what a lock-free deliverer visits. The
    /// same array as `entries` whenever the gate is idle (only in a `lockFreeNext` core).
    @usableFromInline var published = ContiguousArray<SubjectEntry<Element>>() {
      didSet { unsafe publishedEntries = unsafe published.withUnsafeBufferPointer { unsafe $0 } }
    }
    /// The elements of `published`, visited without retaining the array: `published` keeps
    /// them alive and is replaced, never changed in place.
    @usableFromInline var publishedEntries = unsafe UnsafeBufferPointer<SubjectEntry<Element>>(
      start: nil, count: 0)
    @usableFromInline var stopEvent: Event<Element>?
    /// The current value of a ``BehaviorSubject`` (`nil` in other subjects).
    @usableFromInline var current: Element?
    @usableFromInline var isDisposed = false
    /// Work queued for the deliverer; each item is released as soon as it is delivered.
    @usableFromInline var pending = Queue<Work>()
    /// Where the hand-off of a long drain stands (see ``drainPendingAndUnlock()``).
    @usableFromInline var handOff = HandOff.none

    @inlinable init() {}
  }

  /// How many queued items a deliverer delivers in one call before it asks another thread
  /// that sends to take over (see ``drainPendingAndUnlock()``).
  @usableFromInline static var handOffThreshold: Int { 1024 }
  /// How long a sender that offered to take over waits for the deliverer to finish the event
  /// it is delivering, in nanoseconds, before it withdraws the offer and returns.
  @usableFromInline static var handOffPatience: UInt64 { 100_000_000 }

  /// The hand-off of a long drain from the deliverer to a thread that sends meanwhile.
  @usableFromInline
  enum HandOff {
    /// Nobody asked.
    case none
    /// The deliverer (on this thread) delivered ``handOffThreshold`` items and more are
    /// queued: the next sender on another thread is asked to take over.
    case requested(UInt)
    /// A sender took up the request and waits for the deliverer to step aside.
    case accepted(UInt)
    /// The deliverer stepped aside, keeping the gate for the sender that accepted.
    case transferred
  }

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
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case gate }
  @usableFromInline var gateSlot = AtomicSlot(Gate.idle)
  /// One allocation holding the mutex, then the ``State``.
  @usableFromInline let body: UnsafeMutableRawPointer
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let state: UnsafeMutablePointer<State>
  /// Who delivers: ``Gate/busy`` while someone does, ``Gate/announced`` once work or an
  /// observer-list change was queued for that deliverer (see ``Gate``).
  @inlinable var gate: Gate { Gate(Slots.gate, of: self) }
  /// Whether `.next` events may be delivered without the lock (see the type's comment).
  @usableFromInline let lockFreeNext: Bool
  @usableFromInline
  let operations: (SubjectCore<Element>, Operation, SubjectEntry<Element>?) -> Void

  /// Creates a core; with `lockFreeNext`, ``publishNextIfIdle(_:)`` may be used.
  @inlinable
  init(lockFreeNext: Bool = false) {
    self.lockFreeNext = lockFreeNext
    let stateAlignment = MemoryLayout<State>.alignment
    let stateOffset = unsafe aligned(MemoryLayout<pthread_mutex_t>.stride, to: stateAlignment)
    let body = unsafe UnsafeMutableRawPointer.allocate(
      byteCount: stateOffset + MemoryLayout<State>.stride,
      alignment: Swift.max(MemoryLayout<pthread_mutex_t>.alignment, stateAlignment))
    unsafe mutex = unsafe EmbeddedLock.initialize(at: body).mutex
    unsafe state = unsafe (body + stateOffset).initializeMemory(as: State.self, to: State())
    unsafe self.body = unsafe body
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
  @inlinable var lock: EmbeddedLock { unsafe EmbeddedLock(mutex) }

  @inlinable
  func destroyBody() {
    unsafe state.deinitialize(count: 1)
    lock.destroy()
    unsafe body.deallocate()
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
    Self.release(removed)
  }

  /// Tells each of `entries`, unregistered without a terminal event, that the subject let go
  /// of it, so the subscriptions holding them are freed. Call without the lock: this runs
  /// deinitialisers.
  @inlinable
  static func release(_ entries: ContiguousArray<SubjectEntry<Element>>) {
    for entry in entries { entry.releaseFromSource() }
  }

  @inlinable var entries: ContiguousArray<SubjectEntry<Element>> {
    get { unsafe state.pointee.entries }
    _modify { yield unsafe &state.pointee.entries }
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
    guard lockFreeNext else { return unsafe body(&state.pointee.entries) }
    if gate.tryClaim() {
      // Nobody delivers: drop the second reference so the change is made in place.
      unsafe state.pointee.published = []
      let result = unsafe body(&state.pointee.entries)
      unsafe state.pointee.published = unsafe state.pointee.entries
      gate.releaseLocked()
      return result
    }
    let result = unsafe body(&state.pointee.entries)
    announceLocked()
    return result
  }

  /// Whether `published` is the same array as `entries`. Call with the lock and the gate held.
  @inlinable
  var isPublishedCurrentLocked: Bool {
    let published = unsafe state.pointee.published.withUnsafeBufferPointer { $0.baseAddress }
    let entries = unsafe state.pointee.entries.withUnsafeBufferPointer { $0.baseAddress }
    return unsafe published == entries
      && state.pointee.published.count == state.pointee.entries.count
  }

  /// Makes the deliverer take the lock before it leaves (it then updates `published`); when
  /// the deliverer left meanwhile, updates `published` here. Call with the lock held.
  @inlinable
  func announceLocked() {
    guard gate.claimOrAnnounceLocked() == .claimed else { return }
    unsafe state.pointee.published = unsafe state.pointee.entries
    gate.releaseLocked()
  }
  @inlinable var stopEvent: Event<Element>? {
    get { unsafe state.pointee.stopEvent }
    set { unsafe state.pointee.stopEvent = newValue }
  }
  @inlinable var isDisposed: Bool {
    get { unsafe state.pointee.isDisposed }
    set { unsafe state.pointee.isDisposed = newValue }
  }
  @inlinable var pending: Queue<Work> {
    get { unsafe state.pointee.pending }
    _modify { yield unsafe &state.pointee.pending }
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
      let found = unsafe entries.withUnsafeBufferPointer { buffer -> Int? in
        for index in buffer.indices where unsafe buffer[index] === entry { return index }
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
  func publishAndUnlock(_ event: Event<Element>) {
    if event.isStopEvent {
      let targets = entries
      stopEvent = event
      modifyEntriesLocked { $0 = [] }
      deliverOrEnqueueAndUnlock(.all(event, targets))
      return
    }
    guard startDeliveringLocked() else {
      enqueueAndUnlock(.all(event, entries))
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
  func publishTerminalSequenceAndUnlock(_ events: [Event<Element>]) {
    let targets = entries
    stopEvent = events.last
    modifyEntriesLocked { $0 = [] }
    deliverOrEnqueueAndUnlock(.many(events, targets))
  }

  /// Queues `events` for one observer only (used for replay on subscription). Call with the
  /// lock held; the lock is released on return.
  @inlinable
  func sendAndUnlock(_ events: [Event<Element>], to entry: SubjectEntry<Element>) {
    deliverOrEnqueueAndUnlock(.one(entry, events))
  }

  /// Delivers `event` to one observer only (the current value, on subscription), without
  /// building a queued ``Work`` item when nobody is delivering. Call with the lock held; the
  /// lock is released on return.
  @inlinable
  func sendAndUnlock(_ event: Event<Element>, to entry: SubjectEntry<Element>) {
    guard startDeliveringLocked() else {
      enqueueAndUnlock(.one(entry, [event]))
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

  /// Disposes the subject: unregisters every observer and releases them after the lock.
  @inlinable
  func dispose() {
    Self.release(lock.withLock { disposeLocked() })
  }

  /// Lets go of every observer without a terminal event (the subject or its relay is freed).
  @inlinable
  func detachObservers() { operations(self, .detach, nil) }

  /// Takes the lock if the subject still accepts events (no terminal event, not disposed);
  /// otherwise returns `false` without it.
  @inlinable
  func lockIfAccepting() -> Bool {
    lock.lock()
    if stopEvent != nil || isDisposed {
      lock.unlock()
      return false
    }
    return true
  }

  /// Takes the lock to subscribe `observer`; if the subject has ended, tells `observer` (its
  /// terminal event, or ``RxError/disposed(object:)`` naming `subject`) and returns `false`
  /// without the lock.
  @inlinable
  func lockForSubscribing(_ observer: AnyObserver<Element>, subject: String) -> Bool {
    lock.lock()
    if let stop = stopEvent {
      lock.unlock()
      observer.on(stop)
      return false
    }
    if isDisposed {
      lock.unlock()
      observer.on(.error(RxError.disposed(object: subject)))
      return false
    }
    return true
  }

  @inlinable
  func deliverOrEnqueueAndUnlock(_ work: Work) {
    guard startDeliveringLocked() else {
      enqueueAndUnlock(work)
      return
    }
    lock.unlock()
    deliver(work)
    finishDelivering()
  }

  /// Makes the caller the deliverer if nobody delivers. Call with the lock held.
  @inlinable
  func startDeliveringLocked() -> Bool {
    // A lock-free deliverer may take an idle gate at any time; otherwise, with the lock held,
    // only a deliverer leaving can change a busy gate, and nothing changes an idle one.
    lockFreeNext ? gate.tryClaim() : gate.tryClaimLockedWithoutContention()
  }

  /// Delivers a `.next` event without the lock when nobody delivers, and returns `true`;
  /// returns `false` (having done nothing) when someone does. Only in a `lockFreeNext` core.
  ///
  /// After a terminal event or disposal the observer list is empty, so nothing is delivered.
  @inlinable
  func publishNextIfIdle(_ event: Event<Element>) -> Bool {
    guard gate.tryClaim() else { return false }
    // Holding the gate, this thread alone reads `published`; whoever changes the observer list
    // meanwhile leaves this array alone and alive.
    let buffer = unsafe state.pointee.publishedEntries
    for index in buffer.indices {
      unsafe Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { $0.deliver(event) }
    }
    finishDelivering()
    return true
  }

  /// Queues `work` for the deliverer and releases the lock; if the deliverer left meanwhile,
  /// the caller becomes the deliverer and drains. Call with the lock held.
  @inlinable
  func enqueueAndUnlock(_ work: Work) {
    pending.append(work)
    if case .requested(let deliverer) = unsafe state.pointee.handOff,
      deliverer != currentThreadIdentity()
    {
      // The deliverer has been at it for long and asks for help: take over once it finished
      // the event it is delivering (it holds the gate for us).
      unsafe state.pointee.handOff = .accepted(deliverer)
      takeOverAndUnlock(from: deliverer)
      return
    }
    if gate.claimOrAnnounceLocked() == .claimed {
      // The deliverer left before seeing this work: deliver it here.
      drainPendingAndUnlock()
      return
    }
    lock.unlock()
  }

  /// Stops delivering, or delivers the work queued meanwhile. Called by the deliverer without
  /// the lock.
  @inlinable
  func finishDelivering() {
    if gate.tryRelease() { return }
    lock.lock()
    drainPendingAndUnlock()
  }

  /// Delivers the queued work until the queue is empty, then stops delivering. Call with the
  /// lock held by the deliverer; the lock is released on return.
  @inlinable
  func drainPendingAndUnlock() {
    // The observer lists `published` held before, released after the lock.
    var replaced: [ContiguousArray<SubjectEntry<Element>>] = []
    defer { withExtendedLifetime(replaced) {} }
    var delivered = 0
    while true {
      // Everything queued so far is taken here, under the lock; work queued from now on
      // announces itself again.
      gate.clearAnnouncementLocked()
      while let next = pending.popFirst() {
        lock.unlock()
        deliver(next)
        lock.lock()
        delivered += 1
        if delivered >= Self.handOffThreshold && !pending.isEmpty && handOffAndUnlock() { return }
      }
      unsafe state.pointee.handOff = .none
      if lockFreeNext && !isPublishedCurrentLocked {
        // Holding the gate and the lock: bring the lock-free deliverers' list up to date.
        unsafe replaced.append(state.pointee.published)
        unsafe state.pointee.published = unsafe state.pointee.entries
      }
      lock.unlock()
      if gate.tryRelease() { return }
      lock.lock()
    }
  }

  /// The deliverer, lock held, delivered ``handOffThreshold`` items and more are queued: asks
  /// the next thread that sends to take over, or, when one accepted, steps aside, leaving the
  /// gate held for it, and releases the lock.
  ///
  /// - Returns: Whether the caller stepped aside (and must return at once).
  @usableFromInline
  func handOffAndUnlock() -> Bool {
    switch unsafe state.pointee.handOff {
    case .none:
      unsafe state.pointee.handOff = .requested(currentThreadIdentity())
      return false
    case .requested, .transferred:
      return false
    case .accepted:
      unsafe state.pointee.handOff = .transferred
      lock.unlock()
      return true
    }
  }

  /// A sender, lock held, accepted the deliverer's request: waits (without the lock) for the
  /// deliverer to step aside, then drains; withdraws after ``handOffPatience`` (the deliverer
  /// may be blocked on this very thread, through another subject). Releases the lock.
  @usableFromInline
  func takeOverAndUnlock(from deliverer: UInt) {
    let start = DispatchTime.now().uptimeNanoseconds
    while true {
      lock.unlock()
      sched_yield()
      lock.lock()
      if case .transferred = unsafe state.pointee.handOff {
        unsafe state.pointee.handOff = .none
        drainPendingAndUnlock()
        return
      }
      if DispatchTime.now().uptimeNanoseconds - start > Self.handOffPatience {
        // The deliverer keeps the work (it can't leave before it saw this withdrawal).
        unsafe state.pointee.handOff = .requested(deliverer)
        lock.unlock()
        return
      }
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
    unsafe targets.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        unsafe Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef {
          $0.deliver(event)
        }
      }
    }
  }
}
