import ReactorKitStreams

extension StoreCore {
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
    let registry = self.registry
    registry.pointee.tag = tag
    if let chain = registry.pointee.unretainedChain {
      chain._withUnsafeGuaranteedRef { $0.run(action) }
    } else {
      reduceAndPublish(action)
    }
  }

  /// Reduces `action`, publishes the new state and notifies every subscriber. Runs on the
  /// turn holder's thread.
  @inlinable
  func reduceAndPublish(_ action: any Action) {
    // Subscriptions are visited unretained: the registry keeps them alive until the item is
    // finished (removals wait until then). A subscriber may subscribe meanwhile, appending
    // (possibly reallocating the array), so the array is read afresh for each one, and only
    // those registered when delivery started are visited. Removals wait until the item is
    // finished, so an array only grows meanwhile: an index below the count at the start is in
    // bounds, and is read without a bounds check.
    let registry = self.registry
    let actionCount = registry.pointee.actionSubscriptions.count
    if actionCount != 0 {
      for index in 0..<actionCount {
        Unmanaged.passUnretained(
          registry.pointee.actionSubscriptions.withUnsafeBufferPointer { $0[index] }
        )
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
        Unmanaged.passUnretained(
          registry.pointee.reductionSubscriptions.withUnsafeBufferPointer { $0[index] }
        )
        ._withUnsafeGuaranteedRef { $0.deliver(reduction) }
      }
    }
    registry.pointee.version &+= 1
    let version = registry.pointee.version
    let published = UnsafePointer(storage.value)
    let stateCount = registry.pointee.stateSubscriptions.count
    if stateCount != 0 {
      for index in 0..<stateCount {
        Unmanaged.passUnretained(
          registry.pointee.stateSubscriptions.withUnsafeBufferPointer { $0[index] }
        )
        ._withUnsafeGuaranteedRef { $0.deliver(published.pointee) }
      }
    }
    if !registry.pointee.slots.isEmpty {
      let slots = registry.pointee.slots
      for slot in slots { slot.refresh(published, version) }
    }
  }
}
