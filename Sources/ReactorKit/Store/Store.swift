import ReactorKitStreams

/// A container for app-wide state that changes only through dispatched actions (Redux style).
///
/// Each dispatched ``Action`` runs through the ``Middleware`` chain, and every action the
/// chain lets through is applied by the ``Reducer``, producing one new state that is published
/// to subscribers of ``state``, ``slice(_:)`` and ``select(_:isDuplicate:)``.
///
/// ```swift
/// let store = Store(reducer: appReducer, state: AppState(), middleware: [logging])
/// store.slice(\.session.user)
///   .subscribe(onNext: { user in render(user) })
///   .disposed(by: disposeBag)
/// store.dispatch(SessionAction.logIn(user))
/// ```
///
/// ## Threading
///
/// A store is safe to use from any thread. Processing is serial: each action is reduced
/// exactly once, one at a time, in one total order, and subscribers see the states in that
/// order.
///
/// - `dispatch(_:)` is synchronous. Called from outside the store's processing,
///   it returns after its action, and everything processing it dispatched, has been reduced
///   and every subscriber notified. If another thread is processing, it blocks until that
///   work is done (the processing thread may process it for it).
/// - Called from inside the store's processing (a middleware, the reducer, or a subscriber
///   called by the store), `dispatch` queues the action and returns at once; the action runs
///   from the top of the middleware chain after the current one is finished, including the
///   notification of all subscribers. Queued actions run in FIFO order; nothing recurses or
///   is lost.
/// - Middleware, the reducer and subscribers are called on the thread that is processing,
///   which is the thread of a `dispatch` call in progress, never with a lock held.
/// - Subscribing runs under the same rules: the subscriber receives the current value, then
///   every later change, without gaps or duplicates.
/// - Subscriptions hold the store weakly (the observables hold it strongly). When the store
///   is freed, every subscription that is still active completes.
///
/// > Important: Don't block the processing thread waiting for another thread that
/// > dispatches to the same store: that thread waits for the processing thread.
///
/// `Store` is `Sendable` whatever its `State`: states and actions are handed between threads
/// under the store's locks. Keep them values (or immutable objects), as Redux expects.
public final class Store<State>: @unchecked Sendable {
  // Safety: the dispatch machine and pending removals are guarded by `lock`. The turn is held
  // by whoever claimed the idle `gate` (acquiring; released by storing or exchanging it back
  // to 0, releasing), with or without `lock`. The registry is touched only by the thread that
  // holds the turn. The state is published through `storage`, which synchronises itself.
  // `reducer` is immutable and called only by the turn holder. `fastOwner` is written only by
  // the thread it names.

  /// The storage of ``gate``, ``fastOwner`` and ``middlewareThread``: ``AtomicSlot``s, so the
  /// first stored properties.
  @usableFromInline var gateSlot = AtomicSlot(UInt(0))
  @usableFromInline var fastOwnerSlot = AtomicSlot(UInt(0))
  @usableFromInline var middlewareThreadSlot = AtomicSlot(UInt(0))
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
  @inlinable var gate: UnsafeAtomic<UInt> { UnsafeAtomic(slot: 0, of: self) }
  /// The identity of the thread that claimed the turn without the lock, until the machine
  /// learns about it; 0 otherwise. Only that thread writes its own identity here and clears
  /// it, so a thread that reads its own identity holds the turn.
  @inlinable var fastOwner: UnsafeAtomic<UInt> { UnsafeAtomic(slot: 1, of: self) }
  @usableFromInline let locked: UnsafeMutablePointer<StoreLockedState>
  @usableFromInline let registry: UnsafeMutablePointer<StoreRegistry<State>>
  @usableFromInline let storage: StoreStateStorage<State>
  /// The identity of the thread running the middleware chain right now, 0 when none: calls of
  /// the chain's final `next` from that thread reduce at once.
  @inlinable var middlewareThread: UnsafeAtomic<UInt> { UnsafeAtomic(slot: 2, of: self) }

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - reducer: Applies each action to the state.
  ///   - state: The initial state.
  ///   - middleware: Stages every dispatched action runs through, in order, before it is
  ///     reduced. Each middleware is connected to the store once, here.
  @inlinable
  public init(reducer: Reducer<State>, state: State, middleware: [Middleware<State>] = []) {
    self.reducer = reducer
    storage = StoreStateStorage(state)
    locked = .allocate(capacity: 1)
    locked.initialize(to: StoreLockedState())
    registry = .allocate(capacity: 1)
    registry.initialize(to: StoreRegistry())
    Resources.incrementTotal()
    if !middleware.isEmpty {
      let storage = self.storage
      let getState: Middleware<State>.GetState = { storage.read() }
      let dispatch: Middleware<State>.Dispatch = { [weak self] action in
        self?.dispatch(action)
      }
      var next: Middleware<State>.Dispatch = { [weak self] action in
        self?.reduceFromChain(action)
      }
      for stage in middleware.reversed() {
        next = stage.connect(getState, dispatch)(next)
      }
      registry.pointee.chain = next
    }
  }

  deinit {
    registry.pointee.completeAll()
    registry.deinitialize(count: 1)
    registry.deallocate()
    locked.deinitialize(count: 1)
    locked.deallocate()
    Resources.decrementTotal()
  }

  /// The current state: the state after the last reduction.
  ///
  /// Readable from any thread. Inside the reducer it is still the state before the
  /// reduction.
  @inlinable
  public var currentState: State {
    storage.read()
  }

  /// The state: the current state first, then each new state, one per reduction.
  ///
  /// Never fails; completes when the store is freed. See the store's threading contract for
  /// when and where subscribers are called.
  @inlinable
  public var state: Observable<State> {
    Observable { observer in self.subscribeState(observer) }
  }

  /// Each action as it reaches the reducer, after the middleware chain, just before it is
  /// reduced.
  ///
  /// Actions a middleware drops never appear; an action a middleware turns into three
  /// appears as three. Never fails; completes when the store is freed.
  @inlinable
  public var actions: Observable<any Action> {
    Observable { observer in self.subscribeActions(observer) }
  }

  /// Dispatches `action`: runs it through the middleware chain, reduces what the chain lets
  /// through, and notifies subscribers.
  ///
  /// Synchronous and thread-safe:
  /// - Called from outside the store's processing, it returns after `action`, and everything
  ///   processing it dispatched, has been reduced and every subscriber notified. While
  ///   another thread is processing, it blocks (on a condition variable) until its action
  ///   is done.
  /// - Called from inside the store's processing (a middleware, the reducer, a subscriber
  ///   called by the store), it queues `action` and returns at once. The action runs from
  ///   the top of the middleware chain after the current one is finished, including the
  ///   notification of every subscriber, in FIFO order with other queued actions.
  ///
  /// - Parameter action: The action to dispatch.
  /// - Complexity: Per reduction: the reducer, one copy of the state value (a copy-on-write
  ///   container the reducer mutates is copied only while an older state still shares it),
  ///   one call per ``state`` subscriber, one read and comparison per distinct slice or
  ///   selection, and one call per subscriber whose slice changed. Without contention and
  ///   middleware, it allocates nothing.
  @inlinable
  public func dispatch(_ action: any Action) {
    submitDispatch(action, tag: 0)
  }

  /// Dispatches each element of `actions` as it arrives (see `dispatch(_:)`).
  ///
  /// The store is held weakly: elements arriving after it is freed are dropped. Errors and
  /// completion end the subscription.
  ///
  /// - Parameter actions: The actions to dispatch.
  /// - Returns: A disposable that stops dispatching.
  @discardableResult
  public func dispatch(_ actions: Observable<any Action>) -> Disposable {
    actions.subscribe(onNext: { [weak self] action in self?.dispatch(action) })
  }

  // MARK: - Processing

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

  /// Processes one work item on the turn holder's thread.
  @inlinable
  func process(_ work: StoreWork, tag: UInt64) {
    switch work {
    case .dispatch(let action):
      processDispatch(action, tag: tag)
    case .reduce(let action):
      registry.pointee.tag = tag
      reduceAndPublish(action)
    case .run(let body):
      body()
    }
  }

  /// Runs `action` through the middleware chain (reducing what it lets through) on the turn
  /// holder's thread.
  @inlinable
  func processDispatch(_ action: any Action, tag: UInt64) {
    registry.pointee.tag = tag
    if let chain = registry.pointee.chain {
      let thread = currentThreadIdentity()
      middlewareThread.store(thread, ordering: .relaxed)
      chain(action)
      middlewareThread.store(0, ordering: .relaxed)
    } else {
      reduceAndPublish(action)
    }
  }

  /// The final `next` of the middleware chain.
  @inlinable
  func reduceFromChain(_ action: any Action) {
    let thread = currentThreadIdentity()
    if middlewareThread.load(ordering: .relaxed) == thread {
      middlewareThread.store(0, ordering: .relaxed)
      reduceAndPublish(action)
      middlewareThread.store(thread, ordering: .relaxed)
    } else {
      submitContended(.reduce(action), tag: 0, continuation: nil)
    }
  }

  /// Reduces `action`, publishes the new state and notifies every subscriber. Runs on the
  /// turn holder's thread.
  @inlinable
  func reduceAndPublish(_ action: any Action) {
    // Subscriptions are visited unretained: the registry keeps them alive until the item is
    // finished (removals wait until then). A subscriber may subscribe meanwhile, appending
    // (possibly reallocating the array), so the array is read afresh for each one, and only
    // those registered when delivery started are visited.
    let registry = self.registry
    let actionCount = registry.pointee.actionSubscriptions.count
    if actionCount != 0 {
      for index in 0..<actionCount {
        Unmanaged.passUnretained(registry.pointee.actionSubscriptions[index])
          ._withUnsafeGuaranteedRef { $0.deliver(action) }
      }
    }
    var state = storage.value.pointee
    if registry.pointee.reductionSubscriptions.isEmpty {
      reducer.body(&state, action)
      storage.replace(with: state)
    } else {
      let before = state
      reducer.body(&state, action)
      let reduction = StoreReduction(
        action: action, before: before, after: state, tag: registry.pointee.tag)
      storage.replace(with: state)
      for index in 0..<registry.pointee.reductionSubscriptions.count {
        Unmanaged.passUnretained(registry.pointee.reductionSubscriptions[index])
          ._withUnsafeGuaranteedRef { $0.deliver(reduction) }
      }
    }
    registry.pointee.version &+= 1
    let version = registry.pointee.version
    let published = UnsafePointer(storage.value)
    let stateCount = registry.pointee.stateSubscriptions.count
    if stateCount != 0 {
      for index in 0..<stateCount {
        Unmanaged.passUnretained(registry.pointee.stateSubscriptions[index])
          ._withUnsafeGuaranteedRef { $0.deliver(published.pointee) }
      }
    }
    if !registry.pointee.slots.isEmpty {
      let slots = registry.pointee.slots
      for slot in slots { slot.refresh(published, version) }
    }
  }

  // MARK: - Subscriptions

  /// Runs `body` while holding the store's turn: at once when idle or when called by the turn
  /// holder, otherwise on the turn holder's thread while this thread waits.
  @inlinable
  func withTurn(_ body: @escaping () -> Void) {
    submitContended(.run(body), tag: 0, continuation: nil)
  }

  @usableFromInline
  func subscribeState(_ observer: AnyObserver<State>) -> Disposable {
    var result: StoreSubscription<State>?
    withTurn {
      let subscription = StoreSubscription(
        observer, since: self.registry.pointee.version, list: .state, owner: self)
      self.registry.pointee.stateSubscriptions.append(subscription)
      result = subscription
      subscription.deliver(self.storage.value.pointee)
    }
    return result!
  }

  @usableFromInline
  func subscribeActions(_ observer: AnyObserver<any Action>) -> Disposable {
    var result: StoreSubscription<any Action>?
    withTurn {
      let subscription = StoreSubscription(
        observer, since: self.registry.pointee.version, list: .actions, owner: self)
      self.registry.pointee.actionSubscriptions.append(subscription)
      result = subscription
    }
    return result!
  }

  /// Subscribes `observer` to the selection group `key`, creating the group if needed.
  @inlinable
  func subscribeSelection<Value>(
    key: AnyHashable, observer: AnyObserver<Value>,
    evaluate: @escaping (UnsafePointer<State>) -> Value,
    makeRefresh: @escaping (SelectionGroup<State, Value>) -> (UnsafePointer<State>, UInt64) -> Void
  ) -> Disposable {
    var result: StoreSubscription<Value>?
    withTurn {
      let registry = self.registry
      let version = registry.pointee.version
      let state = UnsafePointer(self.storage.value)
      let group: SelectionGroup<State, Value>
      let initial: Value
      if let existing = registry.pointee.groups[key] {
        group = unsafeDowncast(existing, to: SelectionGroup<State, Value>.self)
        initial = group.value(for: state, version: version)
      } else {
        initial = evaluate(state)
        group = SelectionGroup(key: key, evaluate: evaluate, last: initial, version: version)
        registry.pointee.groups[key] = group
        registry.pointee.slots.append(SelectionSlot(group: group, refresh: makeRefresh(group)))
      }
      let subscription = StoreSubscription(
        observer, since: version, list: .selection(key), owner: self)
      group.storage.pointee.subscriptions.append(subscription)
      result = subscription
      subscription.deliver(initial)
    }
    return result!
  }

  // MARK: - Package hooks

  /// Dispatches `action` with a `tag` that reduction observers see (see ``StoreReduction``).
  package func dispatch(_ action: any Action, tag: UInt64) {
    submitDispatch(action, tag: tag)
  }

  /// Work items queued but not started, and threads blocked waiting for their dispatch (for
  /// tests of the threading contract).
  package var queueDiagnostics: (queued: Int, blockedThreads: Int) {
    lock.withLock {
      let machine = locked.pointee.machine
      return (machine.queue.count - machine.head, machine.blockedRounds.count)
    }
  }

  /// Calls `observer` after each reduction with the action and the states before and after,
  /// on the processing thread, before other subscribers are notified.
  package func observeReductions(_ observer: @escaping (StoreReduction<State>) -> Void)
    -> Disposable
  {
    var result: StoreSubscription<StoreReduction<State>>?
    withTurn {
      let subscription = StoreSubscription(
        AnyObserver<StoreReduction<State>> { event in
          if case .next(let reduction) = event { observer(reduction) }
        }, since: self.registry.pointee.version, list: .reductions, owner: self)
      self.registry.pointee.reductionSubscriptions.append(subscription)
      result = subscription
    }
    return result!
  }
}

extension Store: StoreSubscriptionOwner {
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

/// The bits of ``Store/gate``.
@usableFromInline
enum StoreGate {
  @inlinable static var busy: UInt { 1 }
  @inlinable static var announced: UInt { 2 }
}
