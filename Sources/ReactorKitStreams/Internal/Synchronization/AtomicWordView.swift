/// A protocol over one word of memory that lives elsewhere (see ``UnsafeAtomic``), read and
/// written atomically: ``Gate`` and ``OnceReference``. A conforming type says how it is made
/// from the word's view; the ways to find the word (an ``AtomicSlot`` of an object, an
/// address in the owner's raw state block) are written here once.
@usableFromInline
package protocol AtomicWordView {
  /// The view of `word`.
  init(_ word: UnsafeAtomic<UInt>)
}

extension AtomicWordView {
  /// The view kept in the ``AtomicSlot`` `slot` of `object`.
  @inlinable @inline(__always)
  package init<Index: AtomicSlotIndex>(_ slot: Index, of object: AnyObject) {
    self.init(UnsafeAtomic(slot, of: object))
  }

  /// The view kept in the word at `address`.
  @inlinable @inline(__always)
  package init(at address: UnsafeMutableRawPointer) {
    self.init(unsafe UnsafeAtomic(at: address))
  }
}
