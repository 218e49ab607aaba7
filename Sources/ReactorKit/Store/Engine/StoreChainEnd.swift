import ReactorKitStreams

/// What a store's middleware chain holds of the store: the chain's final `next` and its
/// `getState` go through this object, not through the store, so the chain's hot path takes no
/// weak reference and retains nothing.
///
/// ``thread`` names the thread running the chain right now (0 when none). A thread that reads
/// its own identity there is inside ``StoreCore/processDispatch(_:tag:)`` of a live core, so
/// it may use the unretained ``core`` and read the published state without the storage's
/// lock (it holds the turn). Any other caller (a middleware that kept `next` or `getState`
/// for later, possibly after the store was freed) takes the slow path: ``weakCore`` and the
/// storage's locked read.
@usableFromInline
final class StoreChainEnd<State>: @unchecked Sendable {
  // Safety: `threadSlot` is only accessed atomically, through `thread`, and written only by
  // the thread it names. `core` is dereferenced only by the thread named in `thread`, which
  // is inside the core's own processing (the core is alive); everyone else uses `weakCore`.
  // `storage` synchronises itself.
  /// The storage of ``thread`` (an ``AtomicSlot``, so the first stored property).
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case thread }
  @usableFromInline var threadSlot = AtomicSlot(UInt(0))
  @usableFromInline let core: UnretainedReference<StoreCore<State>>
  @usableFromInline weak var weakCore: StoreCore<State>?
  @usableFromInline let storage: StoreStateStorage<State>

  /// The identity of the thread running the middleware chain right now, 0 when none (also
  /// 0 while that thread reduces and notifies subscribers, so that a `next` called then is
  /// queued).
  @inlinable var thread: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.thread, of: self) }

  @inlinable
  init(core: StoreCore<State>) {
    self.core = UnretainedReference(core)
    weakCore = core
    storage = core.storage
  }

  /// The chain's final `next`: reduces `action` at once when called by the middleware the
  /// store is running, otherwise submits it to the store (if it is still alive).
  @inlinable
  func reduce(_ action: any Action) {
    let current = currentThreadIdentity()
    if thread.load(ordering: .relaxed) == current {
      thread.store(0, ordering: .relaxed)
      core.withObject { $0.reduceAndPublish(action) }
      thread.store(current, ordering: .relaxed)
    } else {
      weakCore?.submitContended(.reduce(action), tag: 0, continuation: nil)
    }
  }

  /// The chain's `getState`: the published state, read without the storage's lock by the
  /// thread running the chain (the turn holder, the only writer).
  @inlinable
  func read() -> State {
    if thread.load(ordering: .relaxed) == currentThreadIdentity() {
      return storage.turnValue
    }
    return storage.read()
  }
}
