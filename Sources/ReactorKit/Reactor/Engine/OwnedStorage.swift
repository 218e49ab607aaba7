import ReactorKitStreams

/// Storage that a ``WeakObjectTable`` keeps for an owner object and releases after the owner
/// has been deinitialised. Subclasses hold the actual state.
@usableFromInline
class OwnedStorage: @unchecked Sendable {
  // Safety: `storageOwner` is written by the table, under its lock, before the table hands the
  // storage out (a storage belongs to one owner); afterwards it is only read, and weak loads
  // are atomic. Subclasses synchronise their own state.

  /// The object this storage belongs to; `nil` once it has been deinitialised. Kept here
  /// rather than in the table's entry, so that the table's slots are two words and a lookup
  /// copies no weak reference.
  @exclusivity(unchecked) @usableFromInline final weak var storageOwner: AnyObject?
  /// ``storageOwner``, loaded (a weak load): the owner, or `nil` once it has been
  /// deinitialised. What subclasses read; only the table writes the property.
  @inlinable final var ownerObject: AnyObject? { unsafe storageOwner }
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
