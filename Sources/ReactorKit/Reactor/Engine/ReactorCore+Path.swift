import ReactorKitStreams

// The path of one action, in the order it runs: `receive` (from the action subject) → `drain`
// → `process` → `run` (`mutate`) → `emit` → `apply` (`reduce`) → `publish` → the state
// stream's subscribers. Each step returns here; what it calls elsewhere (the gate, the lock,
// the trampoline, the queue's rules in `ReactorDrainMachine`, the field views of
// ReactorCore+Storage.swift) does its one thing and comes back. The one call back is a `just`
// (or `of`) result of `mutate` handing its elements to `emit` (an element returned instead
// cost 38 more instructions an action). The other ways in are in
// ReactorCore+Drain.swift (the transformed streams, `mutate` results that run on), +Hooks.swift
// (hooks) and +Output.swift (subscribers arriving); the ends of the streams and disposal in
// ReactorCore+Stages.swift.

extension ReactorCore {
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
      let trampoline = CurrentThreadScheduler.enterIdleTrampoline()
    {
      // This thread's trampoline runs nothing else: claim the core, and drain it now.
      let claimed = gate.tryClaim()
      if claimed {
        owner.store(currentThreadIdentity(), ordering: .relaxed)
        drain(startingWith: action)
      }
      // Runs what the drain scheduled on this thread meanwhile.
      trampoline.leave()
      if claimed { return }
    }
    lock.lock()
    _ = submitAndUnlock(.action(action), urgent: false)
  }

  /// Processes queued work until the queue is empty. Runs on the scheduler, one drain at a
  /// time (the ``gate`` is `busy` meanwhile); the draining thread is the owner.
  ///
  /// The reactor is loaded once, here, and kept alive (pinned) until the drain ends; when it
  /// is gone the core is disposed instead.
  ///
  /// - Parameter first: The action ``receive(_:)`` hands over after claiming the idle gate
  ///   (nothing is queued then); `nil` for a scheduled drain.
  @inlinable
  func drain(startingWith first: Action?) {
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

  /// Runs `mutate` for `action` and feeds what it returns into the mutation stage.
  @inlinable
  func run(_ action: Action) {
    guard let pinned = owned.pinned else { return reactorGone() }
    let mutations = mutate(pinned, action)
    if mutations.forEachSynchronousElement({ emit($0) }) { return }
    let inner = InnerMutationObserver(core: self)
    lock.lock()
    guard !shared.lifecycle.isDisposed else {
      lock.unlock()
      return
    }
    shared.rare.inners[ObjectIdentifier(inner)] = inner
    lock.unlock()
    inner.subscription.setDisposable(mutations.subscribe(inner))
  }

  /// Calls `mutate`, through the hooks when any is installed (owner thread).
  @inlinable
  func mutate(_ pinned: UnretainedReference<AnyObject>, _ action: Action) -> Observable<Mutation> {
    if let hooks = config.hooksReference {
      return hooks.withObject { hooks in pinned.withObject { hooks.value.mutate($0, action) } }
    }
    return pinned.withObject { base.mutate($0, action) }
  }

  /// Calls `reduce`, through the hooks when any is installed (owner thread).
  @inlinable
  func reduce(
    _ pinned: UnretainedReference<AnyObject>, _ state: State, _ mutation: Mutation
  ) -> State {
    if let hooks = config.hooksReference {
      return hooks.withObject { hooks in
        pinned.withObject { hooks.value.reduce($0, state, mutation) }
      }
    }
    return pinned.withObject { base.reduce($0, state, mutation) }
  }

  /// Feeds a mutation into `transform(mutation:)`, or straight into `reduce`.
  @inlinable
  func emit(_ mutation: Mutation) {
    if let mutationInput = config.mutationInput {
      mutationInput.on(.next(mutation))
    } else {
      apply(mutation)
    }
  }

  /// Reduces a mutation and sends the new state on (on the owner thread).
  @inlinable
  func apply(_ mutation: Mutation) {
    guard let state = owned.accumulator else { return }
    owned.isDelivering = true
    defer { owned.isDelivering = false }
    guard let pinned = owned.pinned else { return reactorGone() }
    let next = reduce(pinned, state, mutation)
    owned.accumulator = next
    if let stateInput = config.stateInput {
      stateInput.on(.next(next))
    } else {
      publish(next)
    }
  }

  /// Records `state` as the current state, then delivers it to subscribers (owner thread).
  @inlinable
  func publish(_ state: State) {
    lock.lock()
    let previous = shared.current.take()
    shared.current = state
    guard config.ownsOutput else {
      lock.unlock()
      // The previous state is released after the lock: its deinitialisers are user code.
      withExtendedLifetime(previous) {}
      config.replayOutput?.on(.next(state))
      return
    }
    let first = shared.firstObserver
    // Not copied when empty (most reactors): retaining even the empty array costs.
    let others = shared.otherObservers.isEmpty ? nil : shared.otherObservers
    lock.unlock()
    withExtendedLifetime(previous) {}
    deliverToObservers(.next(state), first, others)
  }

  /// Delivers `event` to every registered subscriber of the state stream (owner thread);
  /// the subscribers are taken under the lock, with the new current state for `.next`.
  @inlinable
  func deliverToObservers(
    _ event: Event<State>,
    _ first: OutputObserver?, _ others: ContiguousArray<OutputObserver>?
  ) {
    first?.deliver(event)
    if let others { forEachObserver(in: others) { $0.deliver(event) } }
  }
}
