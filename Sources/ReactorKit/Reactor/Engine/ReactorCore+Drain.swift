import ReactorKitStreams

// The queue's items and the ways into the queue other than an action (ReactorCore+Path.swift):
// the transformed streams, `mutate` results that run on, and scheduling a drain.

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
      _ = other.value.schedule(self) { core in
        core.drain(startingWith: nil)
        return Disposables.create()
      }
    } else {
      _ = CurrentThreadScheduler.instance.schedule(self) { core in
        core.drain(startingWith: nil)
        return Disposables.create()
      }
    }
  }

}
