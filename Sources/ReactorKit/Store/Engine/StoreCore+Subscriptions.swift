import ReactorKitStreams

extension StoreCore {
  /// Runs `body` while holding the store's turn: at once when idle or when called by the turn
  /// holder, otherwise on the turn holder's thread while this thread waits.
  @inlinable
  func withTurn(_ body: @escaping () -> Void) {
    submitContended(.run(body), tag: 0, continuation: nil)
  }

  @usableFromInline
  func subscribeState(_ observer: AnyObserver<State>) -> Disposable {
    var result: StoreSubscription<State>?
    withTurn {
      let subscription = unsafe StoreSubscription(
        observer, since: self.registry.pointee.version, list: .state, owner: self)
      unsafe self.registry.pointee.stateSubscriptions.append(subscription)
      result = subscription
      unsafe subscription.deliver(self.storage.value.pointee)
    }
    return result!
  }

  @usableFromInline
  func subscribeActions(_ observer: AnyObserver<any Action>) -> Disposable {
    var result: StoreSubscription<any Action>?
    withTurn {
      let subscription = unsafe StoreSubscription(
        observer, since: self.registry.pointee.version, list: .actions, owner: self)
      unsafe self.registry.pointee.actionSubscriptions.append(subscription)
      result = subscription
    }
    return result!
  }

  /// Subscribes `observer` to the selection group `key`, creating the group if needed.
  @inlinable
  func subscribeSelection<Value>(
    key: AnyHashable, observer: AnyObserver<Value>,
    evaluate: @escaping (UnsafePointer<State>) -> Value,
    makeRefresh: @escaping (SelectionGroup<State, Value>) -> (UnsafePointer<State>, UInt64) -> Void
  ) -> Disposable {
    var result: StoreSubscription<Value>?
    withTurn {
      let registry = unsafe self.registry
      let version = unsafe registry.pointee.version
      let state = unsafe UnsafePointer(self.storage.value)
      let group: SelectionGroup<State, Value>
      let initial: Value
      if let existing = unsafe registry.pointee.groups[key] {
        group = unsafe unsafeDowncast(existing, to: SelectionGroup<State, Value>.self)
        initial = unsafe group.value(for: state, version: version)
      } else {
        initial = unsafe evaluate(state)
        group = unsafe SelectionGroup(key: key, evaluate: evaluate, last: initial, version: version)
        unsafe registry.pointee.groups[key] = group
        unsafe registry.pointee.slots.append(
          SelectionSlot(group: group, refresh: makeRefresh(group)))
      }
      let subscription = StoreSubscription(
        observer, since: version, list: .selection(key), owner: self)
      unsafe group.storage.pointee.subscriptions.append(subscription)
      result = subscription
      subscription.deliver(initial)
    }
    return result!
  }

  /// Calls `observer` after each reduction with the action and the states before and after,
  /// on the processing thread, before other subscribers are notified.
  func observeReductions(_ observer: @escaping (StoreReduction<State>) -> Void)
    -> Disposable
  {
    var result: StoreSubscription<StoreReduction<State>>?
    withTurn {
      let subscription = StoreSubscription(
        AnyObserver<StoreReduction<State>> { event in
          if case .next(let reduction) = event { observer(reduction) }
        }, since: unsafe self.registry.pointee.version, list: .reductions, owner: self)
      unsafe self.registry.pointee.reductionSubscriptions.append(subscription)
      result = subscription
    }
    return result!
  }

  /// Work items queued but not started, and threads blocked waiting for their dispatch (for
  /// tests of the threading contract).
  var queueDiagnostics: (queued: Int, blockedThreads: Int) {
    lock.withLock {
      unsafe (locked.pointee.machine.queuedCount, locked.pointee.machine.blockedThreadCount)
    }
  }

  /// Work items queued but not started, and the slots the dispatch queue's storage holds (for
  /// tests of its memory).
  var queueStorage: (queued: Int, slots: Int) {
    lock.withLock {
      unsafe (locked.pointee.machine.queuedCount, locked.pointee.machine.queueSlotCount)
    }
  }
}
