import ReactorKitStreams

extension StoreCore {
  /// Processes one work item on the turn holder's thread.
  @inlinable
  func process(_ work: StoreWork, tag: UInt64) {
    switch work {
    case .dispatch(let action):
      processDispatch(action, tag: tag)
    case .reduce(let action):
      unsafe registry.pointee.tag = tag
      reduceAndPublish(action)
    case .run(let body):
      body()
    }
  }

  /// Runs `action` through the middleware chain (reducing what it lets through) on the turn
  /// holder's thread.
  @inlinable
  func processDispatch(_ action: any Action, tag: UInt64) {
    let registry = unsafe self.registry
    unsafe registry.pointee.tag = tag
    if let chain = unsafe registry.pointee.unretainedChain {
      unsafe chain._withUnsafeGuaranteedRef { $0.run(action) }
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
    let registry = unsafe self.registry
    let actionCount = unsafe registry.pointee.actionSubscriptions.count
    if actionCount != 0 {
      for index in 0..<actionCount {
        unsafe Unmanaged.passUnretained(
          registry.pointee.actionSubscriptions.withUnsafeBufferPointer { unsafe $0[index] }
        )
        ._withUnsafeGuaranteedRef { $0.deliver(action) }
      }
    }
    var state = unsafe storage.value.pointee
    if unsafe registry.pointee.reductionSubscriptions.isEmpty {
      reducer.body(&state, action)
      storage.replace(with: state)
    } else {
      let before = state
      reducer.body(&state, action)
      let reduction = unsafe StoreReduction(
        action: action, before: before, after: state, tag: registry.pointee.tag)
      storage.replace(with: state)
      for index in unsafe 0..<registry.pointee.reductionSubscriptions.count {
        unsafe Unmanaged.passUnretained(
          registry.pointee.reductionSubscriptions.withUnsafeBufferPointer { unsafe $0[index] }
        )
        ._withUnsafeGuaranteedRef { $0.deliver(reduction) }
      }
    }
    unsafe registry.pointee.version &+= 1
    let version = unsafe registry.pointee.version
    let published = unsafe UnsafePointer(storage.value)
    let stateCount = unsafe registry.pointee.stateSubscriptions.count
    if stateCount != 0 {
      for index in 0..<stateCount {
        unsafe Unmanaged.passUnretained(
          registry.pointee.stateSubscriptions.withUnsafeBufferPointer { unsafe $0[index] }
        )
        ._withUnsafeGuaranteedRef { unsafe $0.deliver(published.pointee) }
      }
    }
    if unsafe !registry.pointee.slots.isEmpty {
      let slots = unsafe registry.pointee.slots
      for slot in slots { unsafe slot.refresh(published, version) }
    }
  }
}
