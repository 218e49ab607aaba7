import ReactorKitStreams

// The state stream when the engine publishes states itself: its subscribers and their
// disposables.

extension ReactorCore {
  /// Subscribes `observer` to the public state stream.
  ///
  /// When the core publishes states itself (``Shared/ownsOutput``), the observer receives the
  /// current state, then every later one, serially: whoever delivers the current state holds
  /// the right to deliver states, so no state published meanwhile can overtake it.
  /// - The owner thread, between two steps, delivers at once.
  /// - Any thread while the pipeline is still being wired delivers at once; the gate stays
  ///   closed until that delivery is done, so the wiring's end cannot let a state through
  ///   meanwhile (it is queued, and drained by the last such subscriber).
  /// - Another thread claims an idle ``gate`` (as an action would), delivers, and releases the
  ///   gate, scheduling a drain if work was announced meanwhile.
  /// - Otherwise (a drain runs elsewhere, or the owner is delivering a state) the observer is
  ///   queued; the owner registers it and sends it the current state after the current step.
  @inlinable
  func subscribeOutput(_ observer: AnyObserver<State>) -> Disposable {
    lock.lock()
    guard shared.ownsOutput else {
      let output = replayOutputLocked()
      lock.unlock()
      return output.subscribe(observer)
    }
    if shared.lifecycle.hasEnded(.output) {
      lock.unlock()
      observer.on(.completed)
      return Disposables.create()
    }
    // The wiring stores the initial state before it sets `ownsOutput`.
    let current = shared.current!
    if shared.lifecycle.isDisposed {
      // The reactor is gone: the last state, and nothing more. The subscription is let go of
      // at once, so an operator chain subscribed now is released.
      lock.unlock()
      let released = makeReleasedSubscription()
      observer.on(.next(current))
      released.sourceReleased()
      return released
    }
    let entry = OutputObserver(makeObserverSubscription(), observer)
    let gateState = gate.state
    var claimed = false
    var isOwner = false
    var deliversWhileWiring = false
    if gateState.isClosed {
      // Closed and not disposed: still wiring. The wiring may end on another thread while the
      // state is delivered: the gate stays closed until this delivery is done (see
      // `ReactorDrainMachine`), so nothing published overlaps or overtakes it.
      shared.drain.beginWiringDeliveryLocked()
      deliversWhileWiring = true
    } else if owner.load(ordering: .relaxed) == currentThreadIdentity() {
      // `isDelivering` belongs to the owner, read only once the caller is known to be it.
      isOwner = true
      if owned.isDelivering { return queueObserverAndUnlock(entry) }
    } else if gateState.isIdle, gate.tryClaim() {
      claimed = true
    } else {
      return queueObserverAndUnlock(entry)
    }
    appendObserverLocked(entry)
    lock.unlock()
    if isOwner {
      // What the observer sends the reactor is queued, not run inside its `onNext`.
      owned.isDelivering = true
      entry.deliver(.next(current))
      owned.isDelivering = false
    } else {
      entry.deliver(.next(current))
    }
    if claimed { releaseClaimedGate() }
    if deliversWhileWiring { endWiringDelivery() }
    return entry.subscription
  }

  /// Ends a delivery of the current state made while the pipeline was being wired (see
  /// ``subscribeOutput(_:)``): the last one opens the gate if the wiring has ended meanwhile,
  /// and drains what was queued.
  @inlinable
  func endWiringDelivery() {
    lock.lock()
    let schedule = shared.drain.endWiringDeliveryLocked(lifecycle: shared.lifecycle, gate: gate)
    lock.unlock()
    if schedule { scheduleDrain() }
  }

  /// Queues `entry` for the owner to register (``Item/addObserver(_:)``). Call with the lock
  /// held; releases it.
  @inlinable
  func queueObserverAndUnlock(_ entry: OutputObserver) -> Disposable {
    _ = submitAndUnlock(.addObserver(entry), urgent: true)
    return entry.subscription
  }

  /// Releases a ``gate`` claimed by ``subscribeOutput(_:)``; drains what was queued meanwhile.
  @inlinable
  func releaseClaimedGate() {
    if gate.tryRelease() { return }
    lock.lock()
    // Work was announced: hand the gate, still busy, to a drain (unless disposed meanwhile).
    let drains = shared.drain.beginPassLocked(lifecycle: shared.lifecycle, gate: gate)
    lock.unlock()
    if drains { scheduleDrain() }
  }

  /// Registers a subscriber of the state stream. Call with the lock held.
  @inlinable
  func appendObserverLocked(_ entry: OutputObserver) {
    if shared.firstObserver == nil && shared.otherObservers.isEmpty {
      shared.firstObserver = entry
    } else {
      shared.otherObservers.append(entry)
    }
  }

  /// Registers a queued subscriber and sends it the current state (owner thread).
  @inlinable
  func addQueuedObserver(_ entry: OutputObserver) {
    lock.lock()
    guard !shared.lifecycle.isDisposed, let current = shared.current else {
      lock.unlock()
      entry.sourceReleased()
      return
    }
    let ended = shared.lifecycle.hasEnded(.output)
    if !ended { appendObserverLocked(entry) }
    lock.unlock()
    owned.isDelivering = true
    defer { owned.isDelivering = false }
    entry.deliver(.next(current))
    // Subscribed before the stream ended: it gets the end too, and is let go of.
    if ended {
      entry.deliver(.completed)
      entry.sourceReleased()
    }
  }

  /// Called when the disposable of a subscriber of the state stream is disposed (any thread):
  /// unregisters the subscriber. Inlinable, so that the subscription's `unregister` (see
  /// ``makeObserverSubscription()``) calls it specialised.
  @inlinable
  func observerDisposed(_ subscription: ExternalSubscription) {
    removeObserver(subscription)
    // A subscriber goes away, often with the reactor: look for it soon.
    StorageTables.reactors.touch(self)
  }

  /// Unregisters a subscriber of the state stream (any thread), which its disposal already
  /// stopped delivering to.
  ///
  /// `subscription` is only compared with the observers the core holds (it may have let go
  /// of it when it was disposed or the stream ended).
  @inlinable
  func removeObserver(_ subscription: ExternalSubscription) {
    lock.lock()
    var removed: OutputObserver?
    if let first = shared.firstObserver, first.isSubscription(subscription) {
      removed = shared.firstObserver.take()
      if !shared.otherObservers.isEmpty {
        shared.firstObserver = shared.otherObservers.removeFirst()
      }
    } else if let index = shared.otherObservers.firstIndex(where: {
      $0.isSubscription(subscription)
    }) {
      removed = shared.otherObservers.remove(at: index)
    } else {
      // Not registered yet: queued for the owner (rare), or already let go.
      removed = removeQueuedObserverLocked(subscription)
    }
    lock.unlock()
    // Released after the lock: its deinitialiser may run user code.
    withExtendedLifetime(removed) {}
  }

  /// Takes the subscriber whose disposable is `subscription` out of the queue, if it waits
  /// there for the owner. Call with the lock held.
  @usableFromInline
  func removeQueuedObserverLocked(_ subscription: ExternalSubscription) -> OutputObserver? {
    let item = shared.drain.removeFirstUrgentLocked { item in
      if case .addObserver(let queued) = item { return queued.isSubscription(subscription) }
      return false
    }
    guard case .addObserver(let found) = item else { return nil }
    return found
  }

  /// Completes the state stream the core publishes itself (owner thread).
  @inlinable
  func completeOwnOutput() {
    lock.lock()
    guard shared.lifecycle.end(.output) else {
      lock.unlock()
      return
    }
    let first = shared.firstObserver.take()
    let others = shared.otherObservers
    shared.otherObservers = []
    lock.unlock()
    owned.isDelivering = true
    defer { owned.isDelivering = false }
    deliverToObservers(.completed, first, others)
    // Let go of: the links still holding a subscription drop it.
    releaseObservers(first, others)
  }

  /// Tells the subscribers of the state stream that the core let go of them (see
  /// `ExternalSubscription.sourceReleased()`), without a lock.
  @inlinable
  func releaseObservers(_ first: OutputObserver?, _ others: ContiguousArray<OutputObserver>) {
    first?.sourceReleased()
    for entry in others { entry.sourceReleased() }
  }

  /// The subject behind the state stream when the core does not publish states itself:
  /// created by the wiring, or here by a subscriber that comes first (only possible while the
  /// streams are being created). Call with the lock held.
  @inlinable
  func replayOutputLocked() -> ReplaySubject<State> {
    if let output = shared.replayOutput { return output }
    let output = ReplaySubject<State>.create(bufferSize: 1)
    shared.replayOutput = output
    return output
  }

  /// One subscriber of the state stream when the core publishes states itself (see
  /// ``subscribeOutput(_:)``): the subscriber's disposable, which the core tells when it lets
  /// go of the subscriber without the subscription being disposed (the reactor is gone, or the
  /// stream ended; its `sourceReleased()` makes the links holding it, an operator chain or a
  /// `subscribe(onNext:)` handle, drop it), and the observer, which only the core holds.
  ///
  /// So when the core lets go, the observer and what it captures go too, even while the
  /// disposable lives on: dropped (a forgotten `disposed(by:)`), or kept in the bag of an
  /// object that the observer captures (which would otherwise keep itself alive).
  ///
  /// A class, not a struct of the two: a state is delivered to a copy of the subscribers taken
  /// under the lock, and copying one reference costs one retain, where a struct costs one per
  /// field (the per-action cost of a reactor rose by ~80 instructions with a struct).
  @usableFromInline
  final class OutputObserver {
    @usableFromInline let subscription: ExternalSubscription
    @usableFromInline let observer: AnyObserver<State>

    @inlinable
    init(_ subscription: ExternalSubscription, _ observer: AnyObserver<State>) {
      self.subscription = subscription
      self.observer = observer
    }

    /// Delivers `event` unless the subscription was disposed.
    @inlinable
    func deliver(_ event: Event<State>) {
      if subscription.isActive { observer.on(event) }
    }

    /// Tells the subscription that the core let go of it.
    @inlinable
    func sourceReleased() { subscription.sourceReleased() }

    /// Whether this is the subscriber whose disposable is `other`.
    @inlinable
    func isSubscription(_ other: ExternalSubscription) -> Bool { subscription === other }
  }
}
