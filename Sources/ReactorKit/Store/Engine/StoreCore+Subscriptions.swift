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
      let subscription = StoreSubscription(
        observer, since: self.registry.version, list: .state, owner: self)
      self.registry.stateSubscriptions.append(subscription)
      result = subscription
      subscription.deliver(self.storage.turnValue)
    }
    return result!
  }

  @usableFromInline
  func subscribeActions(_ observer: AnyObserver<any Action>) -> Disposable {
    var result: StoreSubscription<any Action>?
    withTurn {
      let subscription = StoreSubscription(
        observer, since: self.registry.version, list: .actions, owner: self)
      self.registry.actionSubscriptions.append(subscription)
      result = subscription
    }
    return result!
  }

  /// Subscribes `observer` to the selection group `key`, creating the group if needed.
  @inlinable
  func subscribeSelection<Value>(
    key: AnyHashable, observer: AnyObserver<Value>,
    evaluate: @escaping (StorePublishedState<State>) -> Value,
    makeRefresh:
      @escaping (SelectionGroup<State, Value>) -> (StorePublishedState<State>, UInt64) ->
      Void
  ) -> Disposable {
    var result: StoreSubscription<Value>?
    withTurn {
      let version = self.registry.version
      let state = self.storage.published
      let group: SelectionGroup<State, Value>
      let initial: Value
      if let existing = self.registry.groups[key] {
        group = existing as! SelectionGroup<State, Value>
        initial = group.value(for: state, version: version)
      } else {
        initial = evaluate(state)
        group = SelectionGroup(key: key, evaluate: evaluate, last: initial, version: version)
        self.registry.groups[key] = group
        self.registry.slots.append(SelectionSlot(group: group, refresh: makeRefresh(group)))
      }
      let subscription = StoreSubscription(
        observer, since: version, list: .selection(key), owner: self)
      group.storage.value.subscriptions.append(subscription)
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
        }, since: self.registry.version, list: .reductions, owner: self)
      self.registry.reductionSubscriptions.append(subscription)
      result = subscription
    }
    return result!
  }

  /// Work items queued but not started, and threads blocked waiting for their dispatch (for
  /// tests of the threading contract).
  var queueDiagnostics: (queued: Int, blockedThreads: Int) {
    lock.withLock {
      (locked.machine.queuedCount, locked.machine.blockedThreadCount)
    }
  }

  /// Work items queued but not started, and the slots the dispatch queue's storage holds (for
  /// tests of its memory).
  var queueStorage: (queued: Int, slots: Int) {
    lock.withLock {
      (locked.machine.queuedCount, locked.machine.queueSlotCount)
    }
  }
}
