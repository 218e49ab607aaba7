import ReactorKitStreams

// Who processes the queue, and the queue itself: the gate, the entry points that queue work
// or run it inline, and the drain.

extension ReactorCore {
  @usableFromInline
  enum Item {
    /// An action from the action subject, before `transform(action:)`.
    case action(Action)
    /// An action emitted by the transformed action stream.
    case transformedAction(Action)
    /// The transformed action stream ended.
    case endOfActions
    /// A mutation emitted by a `mutate` result, before `transform(mutation:)`.
    case innerMutation(Mutation)
    /// A mutation emitted by the transformed mutation stream.
    case mutation(Mutation)
    /// The transformed mutation stream ended.
    case endOfMutations
    /// The installed ``ReactorHook``s changed: rebuild `config.hooks`.
    case reconfigure
    /// A subscriber of the state stream that could not be registered at once (see
    /// ``subscribeOutput(_:)``): registered, and sent the current state, by the owner.
    case addObserver(OutputObserver)
    /// The state stream ends (see ``endStates()``).
    case endOfStates
  }

  /// Queues an action from the action subject. Thread-safe; returns at once when another
  /// thread (or an outer frame of this one) is processing.
  ///
  /// The common case, an idle reactor on `CurrentThreadScheduler` sent an action from a thread
  /// that is not inside a trampoline, skips the queue and the lock: the calling thread claims
  /// the idle ``gate`` and becomes the owner, and the drain, which runs at once, starts with
  /// the action.
  @inlinable
  func receive(_ action: Action) {
    // An idle gate was opened by the wiring (releasing), so `config` is readable here.
    if gate.isIdle, config.usesCurrentThreadScheduler,
      CurrentThreadScheduler.runTrampolined(
        if: {
          guard gate.tryClaim() else { return false }
          owner.store(currentThreadIdentity(), ordering: .relaxed)
          // No drain runs (the gate was idle), so this thread may write the owner's state.
          owned.firstAction = action
          return true
        }, { drain() })
    {
      return
    }
    lock.lock()
    _ = submitAndUnlock(.action(action), urgent: false)
  }

  @inlinable
  func receiveTransformedAction(_ event: Event<Action>) {
    switch event {
    case .next(let action):
      if enqueueUnlessInline(.transformedAction(action), urgent: false) { run(action) }
    case .error, .completed:
      _ = enqueueUnlessInline(.endOfActions, urgent: false, allowInline: false)
    }
  }

  @inlinable
  func receiveInner(_ mutation: Mutation) {
    if enqueueUnlessInline(.innerMutation(mutation), urgent: true) { emit(mutation) }
  }

  @inlinable
  func receiveTransformedMutation(_ event: Event<Mutation>) {
    switch event {
    case .next(let mutation):
      if enqueueUnlessInline(.mutation(mutation), urgent: true) { apply(mutation) }
    case .error, .completed:
      _ = enqueueUnlessInline(.endOfMutations, urgent: true, allowInline: false)
    }
  }

  @inlinable
  func receiveTransformedState(_ event: Event<State>) {
    switch event {
    case .next(let state): publish(state)
    case .error, .completed: config.replayOutput?.on(event)
    }
  }

  /// Queues `item`, unless the caller is the owner thread outside of a state delivery, in
  /// which case it returns `true` and the caller processes the item at once.
  @inlinable
  func enqueueUnlessInline(_ item: Item, urgent: Bool, allowInline: Bool = true) -> Bool {
    lock.lock()
    // `isDelivering` belongs to the owner, so it is read only once the caller is known to be
    // the owner.
    let submission = submitAndUnlock(
      item, urgent: urgent,
      inline: allowInline && owner.load(ordering: .relaxed) == currentThreadIdentity()
        && !owned.isDelivering)
    return submission == .runInline
  }

  /// Hands `item` to the drain machine (see
  /// ``ReactorDrainMachine/submitLocked(_:urgent:inline:lifecycle:gate:)``), releases the
  /// lock, and schedules a drain when the submission claimed the gate. Call with the lock
  /// held.
  @inlinable @inline(__always)
  func submitAndUnlock(
    _ item: Item, urgent: Bool, inline: @autoclosure () -> Bool = false
  ) -> ReactorDrainMachine<Item>.Submission {
    let submission = shared.drain.submitLocked(
      item, urgent: urgent, inline: inline(), lifecycle: shared.lifecycle, gate: gate)
    lock.unlock()
    if submission == .queuedAndClaimed { scheduleDrain() }
    return submission
  }

  @inlinable
  func scheduleDrain() {
    if let other = config.otherScheduler {
      _ = other.scheduler.schedule(self) { core in
        core.drain()
        return Disposables.create()
      }
    } else {
      _ = CurrentThreadScheduler.instance.schedule(self) { core in
        core.drain()
        return Disposables.create()
      }
    }
  }

  /// Processes queued work until the queue is empty. Runs on the scheduler, one drain at a
  /// time (the ``gate`` is `busy` meanwhile); the draining thread is the owner.
  ///
  /// The reactor is loaded once, here, and kept alive (pinned) until the drain ends; when it
  /// is gone the core is disposed instead.
  @inlinable
  func drain() {
    let first = owned.firstAction.take()
    guard let reactor = ownerObject else {
      reactorGone()
      lock.lock()
      owner.store(0, ordering: .relaxed)
      // Closed by the disposal: released, it stays closed.
      gate.releaseLocked()
      lock.unlock()
      return
    }
    // `reactor` keeps it alive until the end of this function; the hooks borrow it.
    let pinned = UnretainedReference(reactor)
    // Whether the gate may still be released without looking at the queue: true after the
    // first action, which `receive` handed over after claiming the idle gate (nothing was
    // queued then); a drain that was scheduled has queued work to look at first.
    var mayRelease = false
    if let first {
      owned.pinned = pinned
      process(.action(first))
      mayRelease = true
    }
    while true {
      if mayRelease {
        // Nothing was queued since the queue was last found empty unless it was announced:
        // release the core without the lock.
        owner.store(0, ordering: .relaxed)
        owned.pinned = nil
        if gate.tryRelease() { break }
      }
      lock.lock()
      // Everything queued so far is taken from here on; later work announces itself again.
      guard shared.drain.beginPassLocked(lifecycle: shared.lifecycle, gate: gate) else {
        // Disposed: the gate was released (it stays closed).
        owner.store(0, ordering: .relaxed)
        owned.pinned = nil
        lock.unlock()
        break
      }
      owner.store(currentThreadIdentity(), ordering: .relaxed)
      owned.pinned = pinned
      while let item = shared.drain.nextLocked(lifecycle: shared.lifecycle) {
        lock.unlock()
        process(item)
        lock.lock()
      }
      lock.unlock()
      mayRelease = true
    }
    // Released last: the reactor's deinitialiser may run here.
    extendLifetime(reactor)
  }

  @inlinable
  func process(_ item: Item) {
    switch item {
    case .action(let action):
      if let actionInput = config.actionInput {
        actionInput.on(.next(action))
      } else {
        run(action)
      }
    case .transformedAction(let action):
      run(action)
    case .endOfActions:
      lock.lock()
      _ = shared.lifecycle.end(.actions)
      let ended = shared.rareStorage?.inners.isEmpty ?? true
      lock.unlock()
      if ended { endMutations() }
    case .innerMutation(let mutation):
      emit(mutation)
    case .mutation(let mutation):
      apply(mutation)
    case .endOfMutations:
      endStates()
    case .reconfigure:
      reconfigure()
    case .addObserver(let entry):
      addQueuedObserver(entry)
    case .endOfStates:
      completeOwnOutput()
    }
  }
}
