import Synchronization

/// The engine of a ``Store``: the turn that serialises processing, the dispatch queue and
/// who waits for it, the published state and the subscriptions. The public `Store` is a thin
/// face over one core, which only the store holds strongly, so the core lives exactly as
/// long as its store.
///
/// Processing runs in *turns*. Whoever holds the turn calls the middleware, the reducer and
/// the subscribers; everyone else queues work for it (see ``StoreDispatchStateMachine``).
/// An idle store is claimed and released with one compare-and-swap of ``gate`` each, without
/// the lock; everything else goes through the machine under ``lock``, and the actions it
/// returns are carried out here, outside the lock.
@usableFromInline
final class StoreCore<State>: @unchecked Sendable {
  // Safety: the dispatch machine and pending removals are guarded by `lock`. The turn is held
  // by whoever claimed the idle `gate` (acquiring; released by storing or exchanging it back
  // to 0, releasing), with or without `lock`. The registry is touched only by the thread that
  // holds the turn. The state is published through `storage`, which synchronises itself.
  // `reducer` is immutable and called only by the turn holder. `fastOwner` is written only by
  // the thread it names.
  @usableFromInline let reducer: Reducer<State>
  @usableFromInline let lock = Lock()
  /// Who holds the turn: 0 when the store is idle, otherwise ``StoreGate/busy``, plus
  /// ``StoreGate/announced`` once work was queued for a turn claimed without the lock.
  ///
  /// An idle store is claimed (0 → busy) and, when nothing was queued meanwhile, released
  /// (busy → 0) with one compare-and-swap each, without the lock: the machine is not told
  /// about such a turn (its `owner` stays 0) unless someone queues work for it. Everything
  /// else changes the gate with the lock held. Whoever queues work, blocks for a round or
  /// defers a removal with the lock held first claims an idle gate, or sees an owner known to
  /// the machine (which finishes under the lock), or announces the work; a releasing
  /// compare-and-swap that succeeds has therefore left nothing behind, and one that fails
  /// takes the lock and drains.
  @usableFromInline let gate = Atomic<UInt>(0)
  /// The identity of the thread that claimed the turn without the lock, until the machine
  /// learns about it; 0 otherwise. Only that thread writes its own identity here and clears
  /// it, so a thread that reads its own identity holds the turn.
  @usableFromInline let fastOwner = Atomic<UInt>(0)
  @usableFromInline let locked: UnsafeMutablePointer<StoreLockedState>
  @usableFromInline let registry: UnsafeMutablePointer<StoreRegistry<State>>
  @usableFromInline let storage: StoreStateStorage<State>
  /// The identity of the thread running the middleware chain right now, 0 when none: calls of
  /// the chain's final `next` from that thread reduce at once.
  @usableFromInline let middlewareThread = Atomic<UInt>(0)

  @inlinable
  init(reducer: Reducer<State>, state: State) {
    self.reducer = reducer
    storage = StoreStateStorage(state)
    locked = .allocate(capacity: 1)
    locked.initialize(to: StoreLockedState())
    registry = .allocate(capacity: 1)
    registry.initialize(to: StoreRegistry())
  }

  deinit {
    registry.pointee.completeAll()
    registry.deinitialize(count: 1)
    registry.deallocate()
    locked.deinitialize(count: 1)
    locked.deallocate()
  }

  /// Dispatches `action` with `tag`: processes it at once when the store is idle (the common,
  /// uncontended case, kept free of allocations), otherwise queues it or waits.
  @inlinable
  func submitDispatch(_ action: any Action, tag: UInt64) {
    guard
      gate.compareExchange(expected: 0, desired: StoreGate.busy, ordering: .acquiring).exchanged
    else {
      submitContended(.dispatch(action), tag: tag, continuation: nil)
      return
    }
    let thread = currentThreadIdentity()
    fastOwner.store(thread, ordering: .relaxed)
    processDispatch(action, tag: tag)
    fastOwner.store(0, ordering: .relaxed)
    if gate.compareExchange(expected: StoreGate.busy, desired: 0, ordering: .releasing).exchanged {
      return
    }
    finishClaimedTurn(thread: thread)
  }

  /// Finishes the item of a turn claimed without the lock after work was announced to it:
  /// tells the machine about the turn (unless a reentrant call already did) and drains.
  @usableFromInline
  func finishClaimedTurn(thread: UInt) {
    lock.lock()
    if locked.pointee.machine.owner == 0 {
      locked.pointee.machine.beginInline(thread: thread)
    }
    if locked.pointee.pendingRemovals.isEmpty
      && locked.pointee.machine.finishInlineItemIfAlone()
    {
      gate.store(0, ordering: .releasing)
      lock.unlock()
      return
    }
    continueDrainingLocked()
  }

  /// With the lock held: claims the turn if the store is idle and returns `true`; otherwise
  /// makes sure the turn holder will see, under the lock, whatever the caller is about to
  /// change in the machine or the pending removals, and returns `false`.
  ///
  /// An owner the machine knows finishes under the lock anyway. A turn claimed without the
  /// lock is announced, so its releasing compare-and-swap fails; when the caller is that
  /// turn's owner (a reentrant call), the machine is told about it here, before it queues.
  @usableFromInline
  func claimOrAnnounceLocked(thread: UInt) -> Bool {
    var current = gate.load(ordering: .relaxed)
    while true {
      if current == 0 {
        let (exchanged, original) = gate.compareExchange(
          expected: 0, desired: StoreGate.busy, ordering: .acquiring)
        if exchanged { return true }
        current = original
        continue
      }
      // An owner the machine knows finishes under the lock.
      if locked.pointee.machine.owner != 0 { return false }
      if current & StoreGate.announced == 0 {
        let (exchanged, original) = gate.compareExchange(
          expected: current, desired: current | StoreGate.announced, ordering: .relaxed)
        if !exchanged {
          current = original
          continue
        }
      }
      if fastOwner.load(ordering: .relaxed) == thread {
        fastOwner.store(0, ordering: .relaxed)
        locked.pointee.machine.beginInline(thread: thread)
      }
      return false
    }
  }

  /// Submits `work` when the store may be busy: processes it now, queues it, or waits for it
  /// (blocking the thread, or, with a `continuation`, resuming it when done).
  @usableFromInline
  func submitContended(
    _ work: StoreWork, tag: UInt64, continuation: CheckedContinuation<Void, Never>?
  ) {
    let thread = currentThreadIdentity()
    lock.lock()
    if claimOrAnnounceLocked(thread: thread) {
      locked.pointee.machine.beginInline(thread: thread)
      lock.unlock()
      process(work, tag: tag)
      lock.lock()
      continueDrainingLocked()
      continuation?.resume()
      return
    }
    let action = locked.pointee.machine.submit(
      work, tag: tag, thread: thread, isAsync: continuation != nil)
    switch action {
    case .runReentrant:
      lock.unlock()
      if case .run(let body) = work { body() }
    case .enqueued:
      lock.unlock()
    case .needsRound:
      if let continuation {
        locked.pointee.machine.enqueue(
          work, tag: tag, round: StoreRound(continuation: continuation))
        lock.unlock()
      } else {
        let round = StoreRound(blockingThread: thread)
        locked.pointee.machine.enqueue(work, tag: tag, round: round)
        waitLocked(for: round)
      }
    }
  }

  /// Blocks until `round` is done or its thread is handed the turn, then processes if it
  /// was. Called with the lock held; returns with it released.
  @usableFromInline
  func waitLocked(for round: StoreRound) {
    while !round.isDone && !round.isGranted {
      round.condition!.wait(lock)
    }
    guard round.isGranted else {
      lock.unlock()
      return
    }
    switch locked.pointee.machine.takeNextAfterHandOff() {
    case .process(let work, let tag, _):
      lock.unlock()
      process(work, tag: tag)
      lock.lock()
      continueDrainingLocked()
    case .stop:
      gate.store(0, ordering: .releasing)
      lock.unlock()
    }
  }

  /// Finishes the item just processed and processes whatever the machine hands out next,
  /// until it says stop. Called with the lock held; returns with it released.
  @inlinable
  func continueDrainingLocked() {
    while true {
      var garbage: [AnyObject] = []
      if !locked.pointee.pendingRemovals.isEmpty {
        garbage = applyPendingRemovalsLocked()
      }
      switch locked.pointee.machine.finishItem() {
      case .process(let work, let tag, let completed):
        completed?.condition?.signal()
        lock.unlock()
        completed?.continuation?.resume()
        withExtendedLifetime(garbage) {}
        process(work, tag: tag)
        lock.lock()
      case .stop(let completed, let heir):
        completed?.condition?.signal()
        if let heir {
          heir.condition?.signal()
        } else {
          gate.store(0, ordering: .releasing)
        }
        lock.unlock()
        completed?.continuation?.resume()
        withExtendedLifetime(garbage) {}
        return
      }
    }
  }

  /// Unregisters subscriptions disposed while the store was busy. Called with the lock held by
  /// the turn holder, between two items.
  @usableFromInline
  func applyPendingRemovalsLocked() -> [AnyObject] {
    var garbage: [AnyObject] = []
    for removal in locked.pointee.pendingRemovals {
      if let released = registry.pointee.remove(removal.subscription, from: removal.list) {
        garbage.append(released)
      }
      garbage.append(removal.subscription)
    }
    locked.pointee.pendingRemovals.removeAll()
    return garbage
  }
}

extension StoreCore: StoreSubscriptionOwner {
  @usableFromInline
  func remove(_ subscription: AnyObject, from list: StoreSubscriptionList) {
    lock.lock()
    guard claimOrAnnounceLocked(thread: currentThreadIdentity()) else {
      locked.pointee.pendingRemovals.append((subscription, list))
      lock.unlock()
      return
    }
    // The store was idle and this thread holds the turn; nothing can be queued meanwhile
    // (that takes the lock), so the gate is simply reopened.
    let released = registry.pointee.remove(subscription, from: list)
    gate.store(0, ordering: .releasing)
    lock.unlock()
    withExtendedLifetime(released) {}
  }
}

extension Store {
  /// Submits `work` to the engine (see ``StoreCore/submitContended(_:tag:continuation:)``).
  @usableFromInline
  func submitContended(
    _ work: StoreWork, tag: UInt64, continuation: CheckedContinuation<Void, Never>?
  ) {
    core.submitContended(work, tag: tag, continuation: continuation)
  }
}
