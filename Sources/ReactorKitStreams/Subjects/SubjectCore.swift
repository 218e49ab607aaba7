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
/// The entry keeps its core alive (a retained reference in ``core``) until it is disposed
/// or freed, so `dispose()` is safe however long it outlives the subject. This is no cycle
/// that outlives the subject: when the subject is freed or disposed it unregisters every
/// observer and releases each entry (``SubscriptionLink/releaseFromSource()``), so the
/// subscription holding the entry lets go of it and the entry, its observer and the
/// subscription are freed even when nobody kept the subscription's disposable.
@usableFromInline
final class SubjectEntry<Element>: SubscriptionLink, Disposable, @unchecked Sendable {
  // Safety: `disposed` and `core` are atomic; `observer` is immutable; the core
  // synchronises itself.
  /// The storage of ``disposed`` and ``core``: ``AtomicSlot``s, so the first stored
  /// properties after the link's (slot 0, see ``SubscriptionLink``): slots 1 and 2.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case disposed = 1
    case core
  }
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @usableFromInline var coreSlot: AtomicSlot
  @usableFromInline let observer: AnyObserver<Element>
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.disposed, of: self) }
  /// The core, retained until the entry is disposed (``OnceReference/take()``).
  @inlinable var core: OnceReference<SubjectCore<Element>> { OnceReference(Slots.core, of: self) }

  @inlinable
  init(_ observer: AnyObserver<Element>, core: SubjectCore<Element>) {
    self.observer = observer
    coreSlot = AtomicSlot(OnceReference.retaining(core))
    super.init()
    Resources.incrementTotal()
  }

  deinit {
    core.releaseUnshared()
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
    guard let owner = core.take() else { return }
    owner.operations(owner, .remove, self)
  }
}

// The behaviour of ``SubjectCore``, whose declaration (with the type's design notes), stored
// properties and state accessors are in `SubjectStorage.swift`.
extension SubjectCore {
  @usableFromInline
  enum Work {
    case all(Event<Element>, ContiguousArray<SubjectEntry<Element>>)
    case one(SubjectEntry<Element>, [Event<Element>])
    case many([Event<Element>], ContiguousArray<SubjectEntry<Element>>)
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

  /// Changes the observer list. Call with the lock held.
  ///
  /// In a `lockFreeNext` core, takes the gate when nobody holds it, so the change is made in
  /// place and copied to `published`; otherwise the change makes a new array (`published` keeps
  /// the deliverer's) and the deliverer is told to update `published` before it leaves.
  @inlinable
  func modifyEntriesLocked<Result>(
    _ body: (inout ContiguousArray<SubjectEntry<Element>>) -> Result
  ) -> Result {
    guard lockFreeNext else { return body(&entries) }
    if gate.tryClaim() {
      // Nobody delivers: drop the second reference so the change is made in place.
      published = []
      let result = body(&entries)
      published = entries
      gate.releaseLocked()
      return result
    }
    let result = body(&entries)
    announceLocked()
    return result
  }

  /// Makes the deliverer take the lock before it leaves (it then updates `published`); when
  /// the deliverer left meanwhile, updates `published` here. Call with the lock held.
  @inlinable
  func announceLocked() {
    guard gate.claimOrAnnounceLocked() == .claimed else { return }
    published = entries
    gate.releaseLocked()
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
      if let found = Self.index(of: entry, in: entries) { entries.remove(at: found) }
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
    deliverToPublished(event)
    finishDelivering()
    return true
  }

  /// Queues `work` for the deliverer and releases the lock; if the deliverer left meanwhile,
  /// the caller becomes the deliverer and drains. Call with the lock held.
  @inlinable
  func enqueueAndUnlock(_ work: Work) {
    pending.append(work)
    if case .requested(let deliverer) = handOff,
      deliverer != currentThreadIdentity()
    {
      // The deliverer has been at it for long and asks for help: take over once it finished
      // the event it is delivering (it holds the gate for us).
      handOff = .accepted(deliverer)
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
        if delivered >= Self.handOffThreshold && !pending.isEmpty && handOffLocked() {
          lock.unlock()
          return
        }
      }
      handOff = .none
      if lockFreeNext && !isPublishedCurrentLocked {
        // Holding the gate and the lock: bring the lock-free deliverers' list up to date.
        replaced.append(published)
        published = entries
      }
      lock.unlock()
      if gate.tryRelease() { return }
      lock.lock()
    }
  }

  /// The deliverer, lock held, delivered ``handOffThreshold`` items and more are queued: asks
  /// the next thread that sends to take over, or, when one accepted, steps aside, leaving the
  /// gate held for it. Keeps the lock.
  ///
  /// - Returns: Whether the caller stepped aside (and must release the lock and return).
  @usableFromInline
  func handOffLocked() -> Bool {
    switch handOff {
    case .none:
      handOff = .requested(currentThreadIdentity())
      return false
    case .requested, .transferred:
      return false
    case .accepted:
      handOff = .transferred
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
      if case .transferred = handOff {
        handOff = .none
        drainPendingAndUnlock()
        return
      }
      if DispatchTime.now().uptimeNanoseconds - start > Self.handOffPatience {
        // The deliverer keeps the work (it can't leave before it saw this withdrawal).
        handOff = .requested(deliverer)
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
}
