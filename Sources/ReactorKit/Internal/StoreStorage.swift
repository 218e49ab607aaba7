/// The published state of a store: written by the processing thread, read from any thread.
///
/// Kept in its own object, so middleware can read the state (`getState`) without holding the
/// store itself, and with its own lock, so readers never contend with dispatching threads.
@usableFromInline
final class StoreStateStorage<State>: @unchecked Sendable {
  // Safety: `value` is written only by the thread that holds the store's turn, with `lock`
  // held; other threads read it with `lock` held; the turn holder may read it without the lock
  // because no one else writes it.
  @usableFromInline let lock = Lock()
  @usableFromInline let value: UnsafeMutablePointer<State>

  @inlinable
  init(_ state: State) {
    value = .allocate(capacity: 1)
    value.initialize(to: state)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// A copy of the state, from any thread.
  @inlinable
  func read() -> State {
    lock.lock()
    defer { lock.unlock() }
    return value.pointee
  }

  /// Publishes `state`. Only the turn holder calls this. The previous state is released
  /// after the lock, so no deinitialiser runs while it is held.
  @inlinable
  func replace(with state: consuming State) {
    var previous = state
    lock.lock()
    swap(&previous, &value.pointee)
    lock.unlock()
  }
}

/// The lock-guarded part of a store.
@usableFromInline
struct StoreLockedState {
  @usableFromInline var machine = StoreDispatchStateMachine()
  /// Subscriptions disposed while the store was busy, unregistered between two items.
  @usableFromInline var pendingRemovals: [(subscription: AnyObject, list: StoreSubscriptionList)] =
    []

  @inlinable
  init() {}
}

/// The part of a store only the thread that holds its turn touches (or any thread with the
/// store's lock held while the store is idle).
@usableFromInline
struct StoreRegistry<State> {
  /// Incremented by each reduction.
  @usableFromInline var version: UInt64 = 0
  /// The tag of the item being processed (see ``StoreWorkItem/tag``).
  @usableFromInline var tag: UInt64 = 0
  /// The middleware chain, ending in the reducer; `nil` without middleware.
  @usableFromInline var chain: ((any Action) -> Void)?
  @usableFromInline var stateSubscriptions = ContiguousArray<StoreSubscription<State>>()
  @usableFromInline var actionSubscriptions = ContiguousArray<StoreSubscription<any Action>>()
  @usableFromInline var reductionSubscriptions =
    ContiguousArray<StoreSubscription<StoreReduction<State>>>()
  /// Selection groups in creation order, evaluated after each reduction.
  @usableFromInline var slots = ContiguousArray<SelectionSlot<State>>()
  @usableFromInline var groups: [AnyHashable: SelectionGroupBase] = [:]

  @inlinable
  init() {}

  /// Completes every subscription: the store is being freed.
  @usableFromInline
  mutating func completeAll() {
    let state = stateSubscriptions
    let actions = actionSubscriptions
    let reductions = reductionSubscriptions
    let groups = slots.map(\.group)
    stateSubscriptions = []
    actionSubscriptions = []
    reductionSubscriptions = []
    slots = []
    self.groups = [:]
    for subscription in state { subscription.complete() }
    for subscription in actions { subscription.complete() }
    for subscription in reductions { subscription.complete() }
    for group in groups { group.completeAll() }
  }

  /// Unregisters `subscription`; returns objects to release once the lock is released.
  @usableFromInline
  mutating func remove(_ subscription: AnyObject, from list: StoreSubscriptionList) -> AnyObject? {
    switch list {
    case .state:
      if let index = stateSubscriptions.firstIndex(where: { $0 === subscription }) {
        stateSubscriptions.remove(at: index)
      }
    case .actions:
      if let index = actionSubscriptions.firstIndex(where: { $0 === subscription }) {
        actionSubscriptions.remove(at: index)
      }
    case .reductions:
      if let index = reductionSubscriptions.firstIndex(where: { $0 === subscription }) {
        reductionSubscriptions.remove(at: index)
      }
    case .selection(let key):
      guard let group = groups[key], group.removeSubscription(subscription) else { return nil }
      groups[key] = nil
      if let index = slots.firstIndex(where: { $0.group === group }) {
        slots.remove(at: index)
      }
      return group
    }
    return nil
  }
}

/// One reduction as seen by package-internal observers (`TestStore`).
@usableFromInline
package struct StoreReduction<State> {
  /// The action that reached the reducer.
  @usableFromInline package let action: any Action
  /// The state before the reduction.
  @usableFromInline package let before: State
  /// The state after the reduction.
  @usableFromInline package let after: State
  /// The tag the action's work item was submitted with; 0 for ordinary dispatches.
  @usableFromInline package let tag: UInt64

  @inlinable
  package init(action: any Action, before: State, after: State, tag: UInt64) {
    self.action = action
    self.before = before
    self.after = after
    self.tag = tag
  }
}
