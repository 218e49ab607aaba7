import ReactorKitStreams

/// `action as? A`, fast in the two common cases: the action's dynamic type is exactly `A` (a
/// metadata comparison and a copy instead of a runtime cast), or it is a type already known
/// not to cast to `A` (a lookup in `misses`).
@inlinable
func castAction<A>(_ action: any Action, to type: A.Type, misses: ActionCastMisses) -> A? {
  let exact = exactAction(action, as: A.self)
  if exact.identity == 0 { return exact.value }
  if misses.contains(exact.identity) { return nil }
  guard let cast = action as? A else {
    misses.insert(exact.identity)
    return nil
  }
  return cast
}

/// A small cache of action types that do not cast to one `Reducer.on` type, so combined
/// reducers don't pay a runtime cast per reducer and action. Whether a type casts to another
/// never changes, so a stale or overwritten entry only costs a cast.
@usableFromInline
final class ActionCastMisses: @unchecked Sendable {
  // Safety: the slots are only accessed atomically, through `slot0` … `slot7`.
  @usableFromInline enum Slots: Int, AtomicSlotIndex {
    case word0, word1, word2, word3, word4, word5, word6, word7
  }
  @usableFromInline var word0Slot = AtomicSlot(UInt(0))
  @usableFromInline var word1Slot = AtomicSlot(UInt(0))
  @usableFromInline var word2Slot = AtomicSlot(UInt(0))
  @usableFromInline var word3Slot = AtomicSlot(UInt(0))
  @usableFromInline var word4Slot = AtomicSlot(UInt(0))
  @usableFromInline var word5Slot = AtomicSlot(UInt(0))
  @usableFromInline var word6Slot = AtomicSlot(UInt(0))
  @usableFromInline var word7Slot = AtomicSlot(UInt(0))
  @inlinable var slot0: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word0, of: self) }
  @inlinable var slot1: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word1, of: self) }
  @inlinable var slot2: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word2, of: self) }
  @inlinable var slot3: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word3, of: self) }
  @inlinable var slot4: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word4, of: self) }
  @inlinable var slot5: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word5, of: self) }
  @inlinable var slot6: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word6, of: self) }
  @inlinable var slot7: UnsafeAtomic<UInt> { UnsafeAtomic(Slots.word7, of: self) }

  @inlinable
  init() {}

  /// The number of slots (a power of two).
  @inlinable static var slotCount: UInt { 8 }
  /// Low bits of a metadata address that are the same for every type (its alignment), so
  /// they are skipped when picking a slot.
  @inlinable static var alignmentBits: UInt { 4 }

  @inlinable
  func slot(for identity: UInt) -> Int {
    Int(truncatingIfNeeded: (identity >> Self.alignmentBits) & (Self.slotCount - 1))
  }

  /// Whether `identity` (a type's metadata address) is known not to cast.
  @inlinable
  func contains(_ identity: UInt) -> Bool {
    let stored: UInt
    switch slot(for: identity) {
    case 0: stored = slot0.load(ordering: .relaxed)
    case 1: stored = slot1.load(ordering: .relaxed)
    case 2: stored = slot2.load(ordering: .relaxed)
    case 3: stored = slot3.load(ordering: .relaxed)
    case 4: stored = slot4.load(ordering: .relaxed)
    case 5: stored = slot5.load(ordering: .relaxed)
    case 6: stored = slot6.load(ordering: .relaxed)
    default: stored = slot7.load(ordering: .relaxed)
    }
    return stored == identity
  }

  /// Records that `identity` does not cast.
  @usableFromInline
  func insert(_ identity: UInt) {
    switch slot(for: identity) {
    case 0: slot0.store(identity, ordering: .relaxed)
    case 1: slot1.store(identity, ordering: .relaxed)
    case 2: slot2.store(identity, ordering: .relaxed)
    case 3: slot3.store(identity, ordering: .relaxed)
    case 4: slot4.store(identity, ordering: .relaxed)
    case 5: slot5.store(identity, ordering: .relaxed)
    case 6: slot6.store(identity, ordering: .relaxed)
    default: slot7.store(identity, ordering: .relaxed)
    }
  }
}
