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

  /// Called before the group is refreshed while an ``UpdateExplainer`` lives.
  @usableFromInline
  func beginExplaining() {}

  /// Whether the refresh at `version` told subscribers about a change, and the group as an
  /// explanation shows it (only while an ``UpdateExplainer`` lives).
  @usableFromInline
  func explain(version: UInt64) -> (notified: Bool, observer: UpdateExplanation.Observer) {
    preconditionFailure("SelectionGroupBase.explain must be overridden")
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
    /// The store version whose change was last sent to the subscribers.
    @usableFromInline var changedVersion: UInt64 = 0

    @inlinable
    init(last: Value, version: UInt64) {
      subscriptions = []
      self.last = last
      self.version = version
    }
  }

  /// Kept in a ``StoreCell`` so the per-dispatch path pays no dynamic exclusivity checks (the
  /// store's turn already gives exclusive access).
  @usableFromInline let storage: StoreCell<Storage>
  /// Computes the value from a state (used when a subscriber joins mid-dispatch).
  @usableFromInline let evaluate: (StorePublishedState<State>) -> Value

  @inlinable
  init(
    key: AnyHashable, evaluate: @escaping (StorePublishedState<State>) -> Value, last: Value,
    version: UInt64
  ) {
    self.evaluate = evaluate
    storage = StoreCell(Storage(last: last, version: version))
    super.init(key: key)
  }

  /// The current value for a new subscriber at store `version`.
  @inlinable
  func value(for state: StorePublishedState<State>, version: UInt64) -> Value {
    storage.value.version == version ? storage.value.last : evaluate(state)
  }

  /// Records `value` as the group's value at `version` and, unless it duplicates the last
  /// one, sends it to every subscriber registered before `version`.
  @inlinable
  func update(_ value: Value, version: UInt64, isDuplicate: (Value, Value) -> Bool) {
    storage.value.version = version
    if isDuplicate(storage.value.last, value) { return }
    storage.value.last = value
    storage.value.changedVersion = version
    let subscriptions = storage.value.subscriptions
    for subscription in subscriptions where subscription.since < version {
      subscription.deliver(value)
    }
  }

  @usableFromInline
  override func removeSubscription(_ subscription: AnyObject) -> Bool {
    if let index = storage.value.subscriptions.firstIndex(where: { $0 === subscription }) {
      storage.value.subscriptions.remove(at: index)
    }
    return storage.value.subscriptions.isEmpty
  }

  @usableFromInline
  override func completeAll() {
    let subscriptions = storage.value.subscriptions
    storage.value.subscriptions = []
    for subscription in subscriptions { subscription.complete() }
  }

  @usableFromInline
  override func explain(version: UInt64) -> (
    notified: Bool, observer: UpdateExplanation.Observer
  ) {
    let isSelect = key.base is SelectionKey
    let observer = UpdateExplanation.Observer(
      kind: isSelect ? .select : .slice,
      name: isSelect ? "select" : "slice \(key.base)",
      subscribers: storage.value.subscriptions.count)
    return (storage.value.changedVersion == version, observer)
  }
}

/// A selection group as the store's per-dispatch loop sees it.
@usableFromInline
struct SelectionSlot<State> {
  @usableFromInline let group: SelectionGroupBase
  /// Evaluates the group's value from the new state at the given version and notifies.
  @usableFromInline let refresh: (StorePublishedState<State>, UInt64) -> Void

  @inlinable
  init(
    group: SelectionGroupBase, refresh: @escaping (StorePublishedState<State>, UInt64) -> Void
  ) {
    self.group = group
    self.refresh = refresh
  }
}

/// The identity of one `select` observable, used as its selection group's key. The key holds
/// it, so its identity cannot be reused while the group exists.
@usableFromInline
final class SelectionKey: Hashable, @unchecked Sendable {
  // Safety: no state.
  @inlinable
  init() {}

  @inlinable
  static func == (lhs: SelectionKey, rhs: SelectionKey) -> Bool { lhs === rhs }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(self))
  }
}
