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
    var state = storage.turnValue
    if registry.reductionSubscriptions.isEmpty {
      reducer.body(&state, action)
      storage.replace(with: state)
    } else {
      let before = state
      reducer.body(&state, action)
      let reduction = StoreReduction(
        action: action, before: before, after: state, tag: registry.tag)
      storage.replace(with: state)
      forEachSubscription(in: \.reductionSubscriptions) { $0.deliver(reduction) }
    }
    registry.version &+= 1
    let version = registry.version
    let published = storage.published
    forEachSubscription(in: \.stateSubscriptions) { $0.deliver(published.value) }
    if !registry.slots.isEmpty {
      let slots = registry.slots
      for slot in slots { slot.refresh(published, version) }
    }
  }
}
