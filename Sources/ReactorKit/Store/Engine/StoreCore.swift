import ReactorKitStreams

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
///
/// ## Which word decides what
///
/// - ``gate``: *whether* a turn is held (idle, busy, busy with work announced). Every turn,
///   with or without the lock, starts by claiming it and ends by releasing it.
/// - ``fastOwner``: *which thread* holds a turn claimed without the lock, while the machine
///   has not been told about that turn; 0 otherwise.
/// - The machine (`locked.machine`, a closed ``StoreDispatchStateMachine``, under ``lock``):
///   the queue, the threads waiting for their actions, and the holder of every turn it has
///   been told about (``StoreDispatchStateMachine/isTurnRecorded``). A turn claimed without
///   the lock is recorded there (``finishClaimedTurn(thread:)``,
///   ``claimOrAnnounceLocked(thread:)``) as soon as anyone else needs to know about it.
/// - `StoreChainEnd.thread`: *which thread* is running the middleware chain, so that a
///   `next` it calls reduces at once and any other `next` is queued.
/// - ``storage``: the published state; ``registry`` (turn holder only): the subscribers, the
///   chain, and the version that decides which subscribers see a change.
///
/// The engine's memory is laid out and reached only in its storage files:
/// StoreLockedState.swift (``StoreCell``, behind ``locked``, ``registry`` and each selection
/// group, and the unretained walks over the subscription lists) and StoreStateStorage.swift
/// (the published state, the borrowed ``StorePublishedState`` selection reads and
/// ``StoredPropertyPath``), and ActionCast+Storage.swift (``exactAction(_:as:)``, the copy of
/// an action's value that `castAction` makes). Everything else uses their safe accessors.
///
/// ## The path of one dispatch
///
/// `Store.init` (Store.swift) has the middleware chain assembled once, by
/// ``StoreChain/install(_:in:dispatch:)`` (StoreChain.swift). Then:
///
/// `Store.dispatch(_:)` (Store.swift) → ``submitDispatch(_:tag:)`` here: an idle gate is
/// claimed, otherwise `submitContended` queues or waits through the machine →
/// ``processDispatch(_:tag:)`` (StoreCore+Processing.swift) → the middleware chain,
/// `StoreChain.run` (StoreChain.swift) through each middleware's stage (Middleware.swift),
/// whose final `next` is `StoreChainEnd.reduce` (StoreChainEnd.swift) →
/// ``reduceAndPublish(_:)`` (StoreCore+Processing.swift): action subscribers (walked in
/// StoreLockedState.swift), the reducer (`Reducer.on` casts with `castAction`,
/// ActionCast.swift), `StoreStateStorage.replace(with:)` (StoreStateStorage.swift), reduction
/// subscribers, state subscribers, then the selection groups (SelectionGroup.swift) →
/// back here: the gate is released, or ``drainAndUnlock(then:)`` runs what was queued
/// meanwhile.
@usableFromInline
final class StoreCore<State>: @unchecked Sendable {
  // Safety: the dispatch machine and pending removals (`locked`) are guarded by `lock`. The
  // turn is held by whoever claimed the `gate` (see `Gate` for its orderings), with or without
  // `lock`. The registry is touched only by the thread that holds the turn. The state is
  // published through `storage`, which synchronises itself. `reducer` is immutable and called
  // only by the turn holder. `fastOwner` is written only by the thread it names. The atomic
  // slots are only accessed atomically, through `gate` and `fastOwner`.
  // Atomic slots first (see `AtomicSlot`).
  /// The storage of ``gate`` and ``fastOwner``.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case gate, fastOwner }
  @usableFromInline var gateSlot = AtomicSlot(Gate.idle)
  @usableFromInline var fastOwnerSlot = AtomicSlot(UInt(0))
  @usableFromInline let reducer: Reducer<State>
  @usableFromInline let lock = Lock()
  /// The storage of ``locked`` (see ``StoreCell`` for why a cell; the accessors are in
  /// StoreLockedState.swift).
  @usableFromInline let lockedCell = StoreCell(StoreLockedState())
  /// The storage of ``registry``.
  @usableFromInline let registryCell = StoreCell(StoreRegistry<State>())
  @usableFromInline let storage: StoreStateStorage<State>

  /// Who holds the turn (see ``Gate``): idle; busy while a thread holds it; announced once
  /// work was queued for the holder since it last looked.
  ///
  /// An idle store is claimed and, when nothing was queued meanwhile, released with one
  /// compare-and-swap each, without the lock: the machine is not told about such a turn
  /// unless someone queues work for it. Everything else changes the gate with the lock held.
  /// Whoever queues work, blocks for a round or defers a removal with the lock held first
  /// claims an idle gate or announces the work; a releasing compare-and-swap that succeeds
  /// has therefore left nothing behind, and one that fails takes the lock and drains.
  @inlinable var gate: Gate { Gate(Slots.gate, of: self) }
  /// The identity of the thread that claimed the turn without the lock, until the machine
  /// learns about it; 0 otherwise. Only that thread writes its own identity here and clears
  /// it, so a thread that reads its own identity holds the turn.
  @inlinable var fastOwner: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.fastOwner, of: self) }

  @inlinable
  init(reducer: Reducer<State>, state: State) {
    self.reducer = reducer
    storage = StoreStateStorage(state)
  }

  deinit {
    registry.completeAll()
  }

  /// Dispatches `action` with `tag`: processes it at once when the store is idle (the common,
  /// uncontended case, kept free of allocations), otherwise queues it or waits.
  @inlinable
  func submitDispatch(_ action: any Action, tag: UInt64) {
    guard gate.tryClaim() else {
      submitContended(.dispatch(action), tag: tag, continuation: nil)
      return
    }
    let thread = currentThreadIdentity()
    fastOwner.store(thread, ordering: .relaxed)
    processDispatch(action, tag: tag)
    fastOwner.store(0, ordering: .relaxed)
    if gate.tryRelease() { return }
    finishClaimedTurn(thread: thread)
  }

  /// Finishes the item of a turn claimed without the lock after work was announced to it:
  /// tells the machine about the turn (unless a reentrant call already did) and drains.
  @usableFromInline
  func finishClaimedTurn(thread: UInt) {
    lock.lock()
    if !locked.machine.isTurnRecorded {
      locked.machine.beginInline(thread: thread)
    }
    if locked.pendingRemovals.isEmpty
      && locked.machine.finishInlineItemIfAlone()
    {
      gate.releaseLocked()
      lock.unlock()
      return
    }
    drainAndUnlock(then: nil)
  }

  /// With the lock held: claims the turn if the store is idle and returns `true`; otherwise
  /// makes sure the turn holder will see, under the lock, whatever the caller is about to
  /// change in the machine or the pending removals, and returns `false`.
  ///
  /// The work is announced to a busy gate, so a holder that claimed the turn without the
  /// lock fails its releasing compare-and-swap and comes to the lock (a holder the machine
  /// knows, or an heir, finishes under the lock anyway). When the caller is a holder the
  /// machine does not know yet (a reentrant call), the machine is told about it here, before
  /// it queues.
  @usableFromInline
  func claimOrAnnounceLocked(thread: UInt) -> Bool {
    switch gate.claimOrAnnounceLocked() {
    case .claimed:
      return true
    case .announced:
      if !locked.machine.isTurnRecorded
        && fastOwner.load(ordering: .relaxed) == thread
      {
        fastOwner.store(0, ordering: .relaxed)
        locked.machine.beginInline(thread: thread)
      }
      return false
    case .closed:
      preconditionFailure("StoreCore: a store's gate is never closed")
    }
  }

  /// Submits `work` when the store may be busy: processes it now, queues it, or waits for it
  /// (blocking the thread, or, with a `continuation`, resuming the task when it is done or
  /// handed the turn).
  @usableFromInline
  func submitContended(
    _ work: StoreWork, tag: UInt64, continuation: CheckedContinuation<StoreResumption, Never>?
  ) {
    let thread = currentThreadIdentity()
    lock.lock()
    if claimOrAnnounceLocked(thread: thread) {
      locked.machine.beginInline(thread: thread)
      lock.unlock()
      process(work, tag: tag)
      lock.lock()
      drainAndUnlock(then: nil)
      continuation?.resume(returning: .done)
      return
    }
    let submitted = locked.machine.submit(
      work, tag: tag, thread: thread, isAsync: continuation != nil)
    switch submitted {
    case .runReentrant:
      lock.unlock()
      if case .run(let body) = work { body() }
    case .enqueued:
      lock.unlock()
    case .needsRound:
      let round = continuation.map { StoreRound(continuation: $0) } ?? StoreRound()
      switch locked.machine.enqueue(work, tag: tag, round: round, thread: thread) {
      case .wait:
        if continuation != nil {
          lock.unlock()
        } else {
          waitAndUnlock(for: round, thread: thread)
        }
      case .done:
        preconditionFailure("StoreCore: a new round is done before it was processed")
      case .takeTurn(let next):
        // The caller took over a turn being handed off; its task resumes once it drained.
        round.continuation = nil
        drainAndUnlock(then: next)
        continuation?.resume(returning: .done)
      }
    }
  }

  /// Blocks until `round` is done, or takes the turn when it is handed to it and drains.
  /// Called with the lock held; returns with it released.
  @usableFromInline
  func waitAndUnlock(for round: StoreRound, thread: UInt) {
    while true {
      switch locked.machine.heirArrived(round, thread: thread) {
      case .wait:
        round.condition!.wait(lock)
      case .done:
        lock.unlock()
        return
      case .takeTurn(let next):
        drainAndUnlock(then: next)
        return
      }
    }
  }

  /// The task of a `send` whose round was handed the turn comes back for it: takes the turn
  /// and drains, or finds the round done, or (another caller took the turn first) waits
  /// again with `continuation`.
  @usableFromInline
  func arriveAsHeir(_ round: StoreRound, continuation: CheckedContinuation<StoreResumption, Never>)
  {
    lock.lock()
    switch locked.machine.heirArrived(round, thread: currentThreadIdentity()) {
    case .wait:
      round.continuation = continuation
      lock.unlock()
    case .done:
      lock.unlock()
      continuation.resume(returning: .done)
    case .takeTurn(let next):
      drainAndUnlock(then: next)
      continuation.resume(returning: .done)
    }
  }

  /// Dispatches `action` from a task: processes it at once when the store is idle, otherwise
  /// suspends until it is done, taking the turn when it is handed to this task.
  @usableFromInline
  func send(_ action: sending any Action) async {
    var resumption = await withCheckedContinuation {
      (continuation: CheckedContinuation<StoreResumption, Never>) in
      submitContended(.dispatch(action), tag: 0, continuation: continuation)
    }
    while case .turn(let round) = resumption {
      resumption = await withCheckedContinuation {
        (continuation: CheckedContinuation<StoreResumption, Never>) in
        arriveAsHeir(round, continuation: continuation)
      }
    }
  }

  /// Carries out `first`, or, when it is `nil`, finishes the item just processed; then
  /// processes whatever the machine hands out next, until it says stop. Called with the lock
  /// held; returns with it released.
  @inlinable
  func drainAndUnlock(then first: StoreDispatchStateMachine.NextAction?) {
    var pending = first
    while true {
      var garbage: [AnyObject] = []
      if !locked.pendingRemovals.isEmpty {
        garbage = applyPendingRemovalsLocked()
      }
      let next = pending ?? locked.machine.finishItem()
      pending = nil
      switch next {
      case .process(let work, let tag, let completed):
        completed?.condition?.signal()
        let resumed = completed?.takeContinuation()
        lock.unlock()
        resumed?.resume(returning: .done)
        withExtendedLifetime(garbage) {}
        process(work, tag: tag)
        lock.lock()
      case .stop(let completed, let heir):
        completed?.condition?.signal()
        let resumed = completed?.takeContinuation()
        var handedTo: CheckedContinuation<StoreResumption, Never>?
        if let heir {
          heir.condition?.signal()
          handedTo = heir.takeContinuation()
        } else {
          gate.releaseLocked()
        }
        lock.unlock()
        resumed?.resume(returning: .done)
        if let heir { handedTo?.resume(returning: .turn(heir)) }
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
    for removal in locked.pendingRemovals {
      if let released = registry.remove(removal.subscription, from: removal.list) {
        garbage.append(released)
      }
      garbage.append(removal.subscription)
    }
    locked.pendingRemovals.removeAll()
    return garbage
  }
}

extension StoreCore: StoreSubscriptionOwner {
  @usableFromInline
  func remove(_ subscription: AnyObject, from list: StoreSubscriptionList) {
    lock.lock()
    guard claimOrAnnounceLocked(thread: currentThreadIdentity()) else {
      locked.pendingRemovals.append((subscription, list))
      lock.unlock()
      return
    }
    // The store was idle and this thread holds the turn; nothing can be queued meanwhile
    // (that takes the lock), so the gate is simply reopened.
    let released = registry.remove(subscription, from: list)
    gate.releaseLocked()
    lock.unlock()
    withExtendedLifetime(released) {}
  }
}

extension Store {
  /// Submits `work` to the engine (see ``StoreCore/submitContended(_:tag:continuation:)``).
  @usableFromInline
  func submitContended(
    _ work: StoreWork, tag: UInt64, continuation: CheckedContinuation<StoreResumption, Never>?
  ) {
    core.submitContended(work, tag: tag, continuation: continuation)
  }
}
