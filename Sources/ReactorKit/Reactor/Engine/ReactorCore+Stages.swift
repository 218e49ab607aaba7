import ReactorKitStreams

// What follows the path of an action (ReactorCore+Path.swift): the `mutate` results that run
// on after it, the ends of the streams, and disposal.

extension ReactorCore {
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
