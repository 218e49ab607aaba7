import ReactorKitStreams

extension StoreCore {
  /// Processes one work item on the turn holder's thread.
  @inlinable
  func process(_ work: StoreWork, tag: UInt64) {
    switch work {
    case .dispatch(let action):
      processDispatch(action, tag: tag)
    case .reduce(let action):
      registry.tag = tag
      reduceAndPublish(action)
    case .run(let body):
      body()
    }
  }

  /// Runs `action` through the middleware chain (reducing what it lets through) on the turn
  /// holder's thread.
  @inlinable
  func processDispatch(_ action: any Action, tag: UInt64) {
    registry.tag = tag
    if let chain = registry.unretainedChain {
      chain.withObject { $0.run(action) }
    } else {
      reduceAndPublish(action)
    }
  }

  /// Reduces `action`, publishes the new state and notifies every subscriber. Runs on the
  /// turn holder's thread.
  @inlinable
  func reduceAndPublish(_ action: any Action) {
    // Subscriptions are visited unretained, and only those registered when delivery started
    // (see `forEachSubscription(in:_:)`, StoreLockedState.swift).
    forEachSubscription(in: \.actionSubscriptions) { $0.deliver(action) }
    // The reducer changes the stored state in place (see `StoreStateStorage.mutate`): with
    // nobody else holding the state, a change to one element copies nothing.
    let reducer = self.reducer
    if registry.reductionSubscriptions.isEmpty {
      storage.mutate { reducer.body(&$0, action) }
    } else {
      // The reduction's observers keep the state before and after, so the next change copies
      // what it changes once (copy-on-write). Boxed: a large inline state is never held
      // twice on the turn holder's stack.
      let reduction = StoreReduction(
        action: action, before: storage.turnValue, after: nil, tag: registry.tag)
      storage.mutate { reducer.body(&$0, action) }
      reduction.afterStorage = storage.turnValue
      forEachSubscription(in: \.reductionSubscriptions) { $0.deliver(reduction) }
    }
    registry.version &+= 1
    let version = registry.version
    if !registry.explainers.isEmpty {
      publishExplaining(action, version: version)
      return
    }
    let published = storage.published
    forEachSubscription(in: \.stateSubscriptions) { $0.deliver(published.value) }
    if !registry.slots.isEmpty {
      let slots = registry.slots
      for slot in slots { slot.refresh(published, version) }
    }
  }
}
