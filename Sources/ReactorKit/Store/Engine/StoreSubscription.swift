import ReactorKitStreams

/// Where a subscription is registered in its store.
@usableFromInline
enum StoreSubscriptionList {
  /// ``Store/state``.
  case state
  /// ``Store/actions``.
  case actions
  /// The package-internal reduction observers (`TestStore`).
  case reductions
  /// The selection group with this key (``Store/slice(_:)``, ``Store/select(_:isDuplicate:)``).
  case selection(AnyHashable)
}

/// A store, as seen by its subscriptions.
@usableFromInline
protocol StoreSubscriptionOwner: AnyObject {
  /// Unregisters `subscription` from `list`. Called once, from any thread.
  func remove(_ subscription: AnyObject, from list: StoreSubscriptionList)
}

/// One observer registered with a store. Disposing it stops delivery at once and unregisters
/// the observer (right away when the store is idle, otherwise after the item in progress).
@usableFromInline
final class StoreSubscription<Element>: Disposable, @unchecked Sendable {
  // Safety: `disposed` is atomic; the other stored properties are immutable (`owner` is a
  // weak reference written only in `init`).
  /// The storage of ``disposed``; an ``AtomicSlot``, so the first stored property.
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @usableFromInline let observer: AnyObserver<Element>
  /// The store version when the subscription was registered; it receives changes of later
  /// versions only (its first value already reflects this one).
  @usableFromInline let since: UInt64
  @usableFromInline let list: StoreSubscriptionList
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(slot: 0, of: self) }
  @usableFromInline weak var owner: (any StoreSubscriptionOwner)?

  @usableFromInline
  init(
    _ observer: AnyObserver<Element>, since: UInt64, list: StoreSubscriptionList,
    owner: any StoreSubscriptionOwner
  ) {
    self.observer = observer
    self.since = since
    self.list = list
    self.owner = owner
    Resources.incrementTotal()
  }

  deinit { Resources.decrementTotal() }

  /// Sends `element` unless the subscription was disposed.
  @inlinable
  func deliver(_ element: Element) {
    if !disposed.load(ordering: .acquiring) { observer.on(.next(element)) }
  }

  @usableFromInline
  func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    owner?.remove(self, from: list)
  }

  /// Ends the subscription with `.completed` unless it was disposed (the store is gone).
  @usableFromInline
  func complete() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    observer.on(.completed)
  }
}

/// The non-generic face of a ``SelectionGroup``, for the store's registry.
@usableFromInline
class SelectionGroupBase {
  @usableFromInline let key: AnyHashable

  @usableFromInline
  init(key: AnyHashable) {
    self.key = key
  }

  /// Removes `subscription`; returns whether the group has no subscriptions left.
  @usableFromInline
  func removeSubscription(_ subscription: AnyObject) -> Bool {
    preconditionFailure("SelectionGroupBase.removeSubscription must be overridden")
  }

  /// Completes every subscription (the store is gone).
  @usableFromInline
  func completeAll() {
    preconditionFailure("SelectionGroupBase.completeAll must be overridden")
  }
}

/// The subscribers of one key path (or one `select` observable) and the value they last saw.
///
/// Every subscriber of the group shares one evaluation per reduction; subscribers are called
/// only when the value changed. Only the thread that holds the store's turn touches the group.
@usableFromInline
final class SelectionGroup<State, Value>: SelectionGroupBase {
  @usableFromInline
  struct Storage {
    @usableFromInline var subscriptions: ContiguousArray<StoreSubscription<Value>>
    @usableFromInline var last: Value
    /// The store version `last` was computed at.
    @usableFromInline var version: UInt64

    @inlinable
    init(last: Value, version: UInt64) {
      subscriptions = []
      self.last = last
      self.version = version
    }
  }

  /// Kept behind a pointer so the per-dispatch path pays no dynamic exclusivity checks (the
  /// store's turn already gives exclusive access).
  @usableFromInline let storage: UnsafeMutablePointer<Storage>
  /// Computes the value from a state (used when a subscriber joins mid-dispatch).
  @usableFromInline let evaluate: (UnsafePointer<State>) -> Value

  @inlinable
  init(
    key: AnyHashable, evaluate: @escaping (UnsafePointer<State>) -> Value, last: Value,
    version: UInt64
  ) {
    self.evaluate = evaluate
    storage = .allocate(capacity: 1)
    storage.initialize(to: Storage(last: last, version: version))
    super.init(key: key)
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  /// The current value for a new subscriber at store `version`.
  @inlinable
  func value(for state: UnsafePointer<State>, version: UInt64) -> Value {
    storage.pointee.version == version ? storage.pointee.last : evaluate(state)
  }

  /// Records `value` as the group's value at `version` and, unless it duplicates the last
  /// one, sends it to every subscriber registered before `version`.
  @inlinable
  func update(_ value: Value, version: UInt64, isDuplicate: (Value, Value) -> Bool) {
    let storage = self.storage
    storage.pointee.version = version
    if isDuplicate(storage.pointee.last, value) { return }
    storage.pointee.last = value
    let subscriptions = storage.pointee.subscriptions
    for subscription in subscriptions where subscription.since < version {
      subscription.deliver(value)
    }
  }

  @usableFromInline
  override func removeSubscription(_ subscription: AnyObject) -> Bool {
    if let index = storage.pointee.subscriptions.firstIndex(where: { $0 === subscription }) {
      storage.pointee.subscriptions.remove(at: index)
    }
    return storage.pointee.subscriptions.isEmpty
  }

  @usableFromInline
  override func completeAll() {
    let subscriptions = storage.pointee.subscriptions
    storage.pointee.subscriptions = []
    for subscription in subscriptions { subscription.complete() }
  }
}

/// A selection group as the store's per-dispatch loop sees it.
@usableFromInline
struct SelectionSlot<State> {
  @usableFromInline let group: SelectionGroupBase
  /// Evaluates the group's value from the new state at the given version and notifies.
  @usableFromInline let refresh: (UnsafePointer<State>, UInt64) -> Void

  @inlinable
  init(group: SelectionGroupBase, refresh: @escaping (UnsafePointer<State>, UInt64) -> Void) {
    self.group = group
    self.refresh = refresh
  }
}
