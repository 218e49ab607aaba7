import ReactorKitStreams

/// Storage that a ``WeakObjectTable`` keeps for an owner object and releases after the owner
/// has been deinitialised. Subclasses hold the actual state.
@usableFromInline
class OwnedStorage: @unchecked Sendable {
  // Safety: `storageOwner` is written by the table, under its stripe's mutex, before the
  // table hands the storage out (a storage belongs to one owner); afterwards it is only read,
  // and both its forms load the owner atomically. Subclasses synchronise their own state.

  #if canImport(ObjectiveC)
    /// The object this storage belongs to; `nil` once it has been deinitialised. Kept here
    /// rather than in the table's entry, so that the table's slots are two words and a lookup
    /// copies no weak reference. Weak on Apple platforms, where an owner may be an
    /// Objective-C object.
    @exclusivity(unchecked) @usableFromInline final weak var storageOwner: AnyObject?
    /// ``storageOwner``, loaded (a weak load): the owner, or `nil` once it has been
    /// deinitialised. What subclasses read; only the table writes the property.
    @inlinable final var ownerObject: AnyObject? { unsafe storageOwner }
  #else
    /// The object this storage belongs to, by its address: an unowned count keeps the owner's
    /// memory allocated (released when the storage goes), not the owner alive. A weak
    /// reference would give every reactor and view a side table, which slows each retain and
    /// release of it (see `UnownedAddress`). One word, like the weak reference it replaces.
    @exclusivity(unchecked) @usableFromInline final var storageOwner: UnownedAddress?
    /// The owner, retained, or `nil` once its deinitialiser has begun. What subclasses read;
    /// only the table writes ``storageOwner``.
    @inlinable final var ownerObject: AnyObject? { unsafe storageOwner?.object }

    deinit {
      unsafe storageOwner?.releaseMemory()
    }
  #endif

  /// Whether the storage belongs to `owner`, which the caller holds (no retain on Linux).
  @inlinable final func isOwned(by owner: AnyObject) -> Bool {
    #if canImport(ObjectiveC)
      unsafe storageOwner === owner
    #else
      unsafe storageOwner?.refers(to: owner) ?? false
    #endif
  }

  /// The owner's key in the table; written by the table, under its lock, before the storage is
  /// handed out.
  @exclusivity(unchecked) @usableFromInline final var storageKey: UInt = 0
  /// `0` while the table does not watch the owner; otherwise one more than the number of times
  /// the Linux sweeps found the owner alive since the table last saw it used (see
  /// ``WeakObjectTable``). Changed under its stripe's mutex; read without it only to skip a
  /// needless ``WeakObjectTable/touch(_:)``.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case sweepMark = 2 }
  @usableFromInline final var sweepMarkSlot = AtomicSlot(UInt8(0))
  /// The view of ``sweepMarkSlot``: an `AtomicSlot`, the third word of the stored properties
  /// (after ``storageOwner`` and ``storageKey``, one word each). Subclasses number their own
  /// slots from 3.
  @inlinable final var sweepMark: UnsafeAtomic<UInt8> { UnsafeAtomic(Slots.sweepMark, of: self) }

  @inlinable init() {}

  /// Called once, on an arbitrary thread and without any table lock held, after the owner is
  /// gone. Stops everything the storage runs and releases what it holds.
  @usableFromInline
  func ownerDidDeinitialize() {}
}
