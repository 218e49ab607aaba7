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
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case disposed }
  @usableFromInline var disposedSlot = AtomicSlot(false)
  @usableFromInline let observer: AnyObserver<Element>
  /// The store version when the subscription was registered; it receives changes of later
  /// versions only (its first value already reflects this one).
  @usableFromInline let since: UInt64
  @usableFromInline let list: StoreSubscriptionList
  @inlinable var disposed: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.disposed, of: self) }
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

  /// Sends the published state unless the subscription was disposed, copying it once, into
  /// the event, in a frame of its own: for a large inline state, whose copies would
  /// otherwise take two state-sized slots in the caller's frame.
  @usableFromInline @inline(never)
  func deliver(published: StorePublishedState<Element>) {
    if !disposed.load(ordering: .acquiring) { observer.on(.next(published.value)) }
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
