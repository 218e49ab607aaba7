import ReactorKitStreams

// The pipeline's stages on the owner thread: mutate, reduce, publish, the ends of the streams,
// the `mutate` results that run on, and disposal.

extension ReactorCore {
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
      return hooks.withObject { hooks in pinned.withObject { hooks.mutate($0, action) } }
    }
    return pinned.withObject { baseMutate($0, action) }
  }

  /// Calls `reduce`, through the hooks when any is installed (owner thread).
  @inlinable
  func reduce(
    _ pinned: UnretainedReference<AnyObject>, _ state: State, _ mutation: Mutation
  ) -> State {
    if let hooks = config.hooksReference {
      return hooks.withObject { hooks in pinned.withObject { hooks.reduce($0, state, mutation) } }
    }
    return pinned.withObject { baseReduce($0, state, mutation) }
  }

  @inlinable
  func innerFinished(_ inner: InnerMutationObserver) {
    lock.lock()
    let rare = shared.rareStorage
    let removed = rare?.inners.removeValue(forKey: ObjectIdentifier(inner)) != nil
    let ended = removed && shared.lifecycle.hasEnded(.actions) && rare?.inners.isEmpty == true
    lock.unlock()
    inner.subscription.dispose()
    if ended { endMutations() }
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

  @inlinable
  func endMutations() {
    lock.lock()
    let first = shared.lifecycle.end(.mutations)
    lock.unlock()
    guard first else { return }
    if let mutationInput = config.mutationInput {
      mutationInput.on(.completed)
    } else {
      endStates()
    }
  }

  /// Ends the state stream. May be called on any thread (by the last `mutate` result to
  /// finish); the end of a stream the core publishes itself is delivered by the owner.
  @inlinable
  func endStates() {
    if let stateInput = config.stateInput {
      stateInput.on(.completed)
    } else if config.ownsOutput {
      if enqueueUnlessInline(.endOfStates, urgent: true) { completeOwnOutput() }
    } else {
      config.replayOutput?.on(.completed)
    }
  }

  @inlinable
  func reactorGone() {
    dispose()
    onReactorGone()
  }

  /// Stops the core: queued work is dropped, running `mutate` results and transformed streams
  /// are disposed. Subscribers of the output keep the last state but receive nothing more.
  ///
  /// Inlinable, so that it is specialised where it is called (``teardown`` and the engine):
  /// unspecialised, every generic type it touches costs a metadata lookup.
  @inlinable
  func dispose() {
    lock.lock()
    guard shared.lifecycle.dispose() else {
      lock.unlock()
      return
    }
    var (mutationQueue, actionQueue) = shared.drain.disposeLocked(gate: gate)
    // Taken whole: what it holds is released or disposed after the lock.
    let rare = shared.rareStorage.take()
    let dropped = (actionQueue, shared.firstObserver.take(), shared.otherObservers)
    shared.otherObservers = []
    // Subscribers of the state stream still waiting for the owner get the last state.
    let current = shared.lifecycle.hasEnded(.output) ? nil : shared.current
    lock.unlock()
    while let item = mutationQueue.popFirst() {
      guard case .addObserver(let entry) = item else { continue }
      if let current { entry.deliver(.next(current)) }
      entry.sourceReleased()
    }
    // Let go of: the links still holding a subscription drop it.
    releaseObservers(dropped.1, dropped.2)
    withExtendedLifetime(dropped) {}
    guard let rare else { return }
    for inner in rare.inners.values { inner.subscription.dispose() }
    for subscription in rare.subscriptions { subscription.dispose() }
  }

  /// Receives the mutations of one `mutate` result that could not be consumed synchronously.
  @usableFromInline
  final class InnerMutationObserver: ObserverType, @unchecked Sendable {
    // Safety: `core` is immutable and thread-safe; `subscription` synchronises itself;
    // `isStopped` is only touched by the serial event delivery of one subscription.
    @usableFromInline let core: ReactorCore
    @usableFromInline let subscription = SingleAssignmentDisposable()
    @usableFromInline var isStopped = false

    @inlinable
    init(core: ReactorCore) {
      self.core = core
    }

    @inlinable
    func on(_ event: Event<Mutation>) {
      guard !isStopped else { return }
      switch event {
      case .next(let mutation):
        core.receiveInner(mutation)
      case .error, .completed:
        isStopped = true
        core.innerFinished(self)
      }
    }
  }
}
