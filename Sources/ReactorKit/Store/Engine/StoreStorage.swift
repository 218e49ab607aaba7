import ReactorKitStreams

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The published state of a store: written by the processing thread, read from any thread.
///
/// Kept in its own object, so middleware can read the state (`getState`) without holding the
/// store itself, and with its own lock, so readers never contend with dispatching threads.
///
/// The writer takes the lock only when a reader is present. Writer and readers meet through
/// two atomics in the manner of Dekker's algorithm: the writer raises ``writing`` and then
/// looks at ``readers``; a reader counts itself in ``readers`` and then looks at ``writing``.
/// Both are sequentially consistent, so at least one of the two sees the other: either the
/// writer sees the reader and writes under the lock (which the reader holds while it copies),
/// or the reader sees the write in progress and waits for it (a swap of one value, no user
/// code) before it copies.
@usableFromInline
final class StoreStateStorage<State>: @unchecked Sendable {
  // Safety: `value` is written only by the thread that holds the store's turn, either with
  // `lock` held or, when no reader had counted itself in `readers`, with `writing` raised.
  // Readers copy it with `lock` held, counted in `readers`, and after `writing` was seen
  // lowered (acquiring), so no copy overlaps a write. The turn holder may read it without
  // either because no one else writes it.

  /// The storage of ``writing`` and ``readers``: ``AtomicSlot``s, so the first stored
  /// properties.
  @usableFromInline var writingSlot = AtomicSlot(false)
  @usableFromInline var readersSlot = AtomicSlot(0)
  @usableFromInline let lock = Lock()
  @usableFromInline let value: UnsafeMutablePointer<State>
  /// Raised by the writer around a write made without the lock.
  @inlinable var writing: UnsafeAtomic<Bool> { UnsafeAtomic(slot: 0, of: self) }
  /// Readers copying the value right now (each holds `lock`, so at most one).
  @inlinable var readers: UnsafeAtomic<Int> { UnsafeAtomic(slot: 1, of: self) }

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
    readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
    // A write without the lock may have started before this reader counted itself; it swaps
    // one value and lowers `writing` at once.
    while writing.load(ordering: .sequentiallyConsistent) { sched_yield() }
    let copy = value.pointee
    readers.wrappingSubtract(1, ordering: .releasing)
    return copy
  }

  /// Publishes `state`. Only the turn holder calls this. The previous state is released
  /// after the write, so no deinitialiser runs while the lock is held or `writing` raised.
  @inlinable
  func replace(with state: consuming State) {
    var previous = state
    writing.store(true, ordering: .sequentiallyConsistent)
    if readers.load(ordering: .sequentiallyConsistent) == 0 {
      swap(&previous, &value.pointee)
      writing.store(false, ordering: .releasing)
    } else {
      writing.store(false, ordering: .releasing)
      lock.lock()
      swap(&previous, &value.pointee)
      lock.unlock()
    }
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
