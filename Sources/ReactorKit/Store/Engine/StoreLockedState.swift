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

/// A value the store engine reaches in place, without dynamic exclusivity checks: the
/// lock-guarded state (``StoreCore/locked``), the registry (``StoreCore/registry``) and each
/// selection group's storage. One allocation, made with the owner and freed with it.
///
/// Safety contract, stated once here instead of at every use: every access to ``value`` is
/// already exclusive, because its owner allows it only with the store's lock held or by the
/// thread that holds the store's turn, and no access to it overlaps another (a subscriber
/// called by the turn holder reaches the registry only between two accesses of the caller).
///
/// ``value`` is reached through addressors (the address of the value in place, as a pointer's
/// `pointee` is), not through `_read`/`_modify` coroutines: with the coroutines, debug builds
/// crashed under contention, holding a copy of the dispatch machine that was no longer valid.
@safe
@usableFromInline
final class StoreCell<Value> {
  /// The value, the object's only stored property; reached only through ``value``, so its
  /// memory never moves while the cell lives.
  @usableFromInline var storage: Value

  @inlinable
  init(_ value: Value) {
    storage = value
  }

  /// Where ``storage`` lies in the object.
  @inlinable @inline(__always)
  var address: UnsafeMutablePointer<Value> {
    unsafe _getUnsafePointerToStoredProperties(self).assumingMemoryBound(to: Value.self)
  }

  /// The value, read or changed in place (see the safety contract above).
  @inlinable @inline(__always)
  var value: Value {
    unsafeAddress { unsafe UnsafePointer(address) }
    unsafeMutableAddress { unsafe address }
  }
}

extension StoreCore {
  /// The dispatch machine and the pending removals: only with ``lock`` held.
  @inlinable @inline(__always)
  var locked: StoreLockedState {
    unsafeAddress { unsafe UnsafePointer(lockedCell.address) }
    unsafeMutableAddress { unsafe lockedCell.address }
  }

  /// The subscribers, the middleware chain and the version: only by the thread that holds the
  /// turn (or with ``lock`` held while the store is idle).
  @inlinable @inline(__always)
  var registry: StoreRegistry<State> {
    unsafeAddress { unsafe UnsafePointer(registryCell.address) }
    unsafeMutableAddress { unsafe registryCell.address }
  }

  /// Calls `body` with each subscription of the registry's list at `list`
  /// (``StoreRegistry/actionSubscriptions``, ``StoreRegistry/reductionSubscriptions`` or
  /// ``StoreRegistry/stateSubscriptions``) registered when the call began, on the turn
  /// holder's thread.
  ///
  /// Subscriptions are visited unretained: the registry keeps them alive until the item is
  /// finished (removals wait until then). A subscriber may subscribe meanwhile, appending
  /// (possibly reallocating the array), so the array is read afresh for each one, and only
  /// those registered when the call began are visited. The array only grows meanwhile, so an
  /// index below the count at the start is in bounds, and is read without a bounds check.
  @inlinable @inline(__always)
  func forEachSubscription<Value>(
    in list: KeyPath<StoreRegistry<State>, ContiguousArray<StoreSubscription<Value>>>,
    _ body: (StoreSubscription<Value>) -> Void
  ) {
    let count = registry[keyPath: list].count
    for index in 0..<count {
      unsafe UnretainedReference(
        registry[keyPath: list].withUnsafeBufferPointer { unsafe $0[index] }
      ).withObject(body)
    }
  }
}
