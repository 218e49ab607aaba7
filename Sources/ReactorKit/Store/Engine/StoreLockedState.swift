import ReactorKitStreams

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

/// A value the store engine reaches without dynamic exclusivity checks: the lock-guarded
/// state (``StoreCore/locked``), the registry (``StoreCore/registry``) and each selection
/// group's storage. One allocation, made with the owner and freed with it.
///
/// Safety contract, stated once here instead of at every use: every access to ``value`` is
/// already exclusive, because its owner allows it only with the store's lock held or by the
/// thread that holds the store's turn, and no access to it overlaps another (a subscriber
/// called by the turn holder reaches the registry only between two accesses of the caller).
@safe
@usableFromInline
final class StoreCell<Value> {
  @exclusivity(unchecked) @usableFromInline var storage: Value

  @inlinable
  init(_ value: Value) {
    unsafe storage = value
  }

  /// The value, read or changed in place (see the safety contract above).
  @inlinable @inline(__always)
  var value: Value {
    _read { yield unsafe storage }
    _modify { yield unsafe &storage }
  }
}

extension StoreCore {
  /// Calls `body` with each subscription of ``StoreRegistry/actionSubscriptions`` registered
  /// when the call began (see ``forEachStateSubscription(_:)``).
  @inlinable @inline(__always)
  func forEachActionSubscription(_ body: (StoreSubscription<any Action>) -> Void) {
    let count = unsafe registryCell.storage.actionSubscriptions.count
    for index in 0..<count {
      unsafe UnretainedReference(
        registryCell.storage.actionSubscriptions.withUnsafeBufferPointer { unsafe $0[index] }
      ).withObject(body)
    }
  }

  /// Calls `body` with each subscription of ``StoreRegistry/reductionSubscriptions``
  /// registered when the call began (see ``forEachStateSubscription(_:)``).
  @inlinable @inline(__always)
  func forEachReductionSubscription(_ body: (StoreSubscription<StoreReduction<State>>) -> Void) {
    let count = unsafe registryCell.storage.reductionSubscriptions.count
    for index in 0..<count {
      unsafe UnretainedReference(
        registryCell.storage.reductionSubscriptions.withUnsafeBufferPointer { unsafe $0[index] }
      ).withObject(body)
    }
  }

  /// Calls `body` with each subscription of ``StoreRegistry/stateSubscriptions`` registered
  /// when the call began, on the turn holder's thread.
  ///
  /// Subscriptions are visited unretained: the registry keeps them alive until the item is
  /// finished (removals wait until then). A subscriber may subscribe meanwhile, appending
  /// (possibly reallocating the array), so the array is read afresh for each one, and only
  /// those registered when the call began are visited. The array only grows meanwhile, so an
  /// index below the count at the start is in bounds, and is read without a bounds check.
  @inlinable @inline(__always)
  func forEachStateSubscription(_ body: (StoreSubscription<State>) -> Void) {
    let count = unsafe registryCell.storage.stateSubscriptions.count
    for index in 0..<count {
      unsafe UnretainedReference(
        registryCell.storage.stateSubscriptions.withUnsafeBufferPointer { unsafe $0[index] }
      ).withObject(body)
    }
  }
}
