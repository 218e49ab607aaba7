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
      reduceObserved(action, reducer)
    }
    registry.version &+= 1
    let version = registry.version
    if !registry.explainers.isEmpty {
      publishExplaining(action, version: version)
      return
    }
    let published = storage.published
    if MemoryLayout<State>.size > Self.largeStateSize {
      // A large inline state: each delivery in a frame of its own (see `deliver(published:)`).
      forEachSubscription(in: \.stateSubscriptions) { $0.deliver(published: published) }
    } else {
      forEachSubscription(in: \.stateSubscriptions) { $0.deliver(published.value) }
    }
    if !registry.slots.isEmpty {
      let slots = registry.slots
      for slot in slots { slot.refresh(published, version) }
    }
  }

  /// The size in bytes above which a state stored inline is delivered to subscribers out of
  /// line (one copy, in a frame of its own); smaller states are delivered inline.
  @inlinable static var largeStateSize: Int { 4_096 }

  /// A reduction with observers: they keep the state before and after, so the next change
  /// copies what it changes once (copy-on-write). Out of line, and each copy in a frame of its
  /// own: an optimized `reduceAndPublish` gave every copy of a large inline state its own
  /// slot in one frame (two 256 KiB slots for a 256 KiB state), which overflowed a 512 KiB
  /// stack before the first instruction ran.
  @usableFromInline @inline(never)
  func reduceObserved(_ action: any Action, _ reducer: Reducer<State>) {
    let reduction = reductionBefore(action)
    storage.mutate { reducer.body(&$0, action) }
    recordAfter(in: reduction)
    forEachSubscription(in: \.reductionSubscriptions) { $0.deliver(reduction) }
  }

  /// A reduction holding a copy of the state before it.
  @inline(never)
  func reductionBefore(_ action: any Action) -> StoreReduction<State> {
    StoreReduction(action: action, before: storage.turnValue, after: nil, tag: registry.tag)
  }

  /// Copies the state after the reduction into it.
  @inline(never)
  func recordAfter(in reduction: StoreReduction<State>) {
    reduction.afterStorage = storage.turnValue
  }
}
