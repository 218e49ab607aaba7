import ReactorKitStreams

/// The part of a store only the thread that holds its turn touches (or any thread with the
/// store's lock held while the store is idle).
@usableFromInline
struct StoreRegistry<State> {
  /// Incremented by each reduction.
  @usableFromInline var version: UInt64 = 0
  /// The tag of the item being processed (see ``StoreWorkItem/tag``).
  @usableFromInline var tag: UInt64 = 0
  /// The middleware chain, ending in the reducer; `nil` without middleware.
  @usableFromInline var chain: StoreChain<State>? {
    didSet { unretainedChain = chain.map(UnretainedReference.init) }
  }
  /// ``chain``, unretained, for the dispatch path (a load, where a copy of `chain` would
  /// retain and release it around each dispatch); the registry keeps it alive.
  @usableFromInline var unretainedChain: UnretainedReference<StoreChain<State>>?
  @usableFromInline var stateSubscriptions = ContiguousArray<StoreSubscription<State>>()
  @usableFromInline var actionSubscriptions = ContiguousArray<StoreSubscription<any Action>>()
  @usableFromInline var reductionSubscriptions =
    ContiguousArray<StoreSubscription<StoreReduction<State>>>()
  /// Selection groups in creation order, evaluated after each reduction.
  @usableFromInline var slots = ContiguousArray<SelectionSlot<State>>()
  @usableFromInline var groups: [AnyHashable: SelectionGroupBase] = [:]
  /// The live ``UpdateExplainer``s; while there is none, a reduction explains nothing.
  @usableFromInline var explainers: [UpdateExplainerCore] = []

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
