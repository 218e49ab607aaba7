/// A value kept behind a pointer its cell owns, read and written without Swift's dynamic
/// exclusivity checks: the safe face of "state behind a pointer" for engines whose own
/// protocol (a lock, serial delivery, one thread) already gives one accessor at a time.
///
/// A class's stored `var` pays `swift_beginAccess` on every access; a `let` cell does not,
/// and its ``value`` is modified in place (`cell.value.queue.append(x)`). The cell is
/// noncopyable: it allocates the value when made and frees it when its owner is freed.
///
/// Safety contract, stated once here: the owner makes sure that two accesses to ``value``
/// never overlap (the guarantee `@exclusivity(unchecked)` asks for), and says how where it
/// declares the cell.
@safe
@frozen
@usableFromInline
package struct ExclusiveCell<Value>: ~Copyable {
  @usableFromInline let address: UnsafeMutablePointer<Value>

  /// A cell holding `value`.
  @inlinable
  package init(_ value: consuming Value) {
    unsafe address = .allocate(capacity: 1)
    unsafe address.initialize(to: value)
  }

  deinit {
    unsafe address.deinitialize(count: 1)
    unsafe address.deallocate()
  }

  /// The value, read, written or modified in place. Addressors, like `pointer.pointee`: a
  /// field is read where it lies (no copy of the whole value), and no accessor coroutine
  /// stands between the caller and the memory.
  @inlinable
  package var value: Value {
    @inline(__always) unsafeAddress { unsafe UnsafePointer(address) }
    @inline(__always) nonmutating unsafeMutableAddress { unsafe address }
  }
}

/// A stored property that its owner's own protocol hands to one accessor at a time (an atomic
/// handshake that publishes it, a lock), reached without Swift's dynamic exclusivity checks and
/// without an allocation: what `@exclusivity(unchecked) var` gives, declared like an
/// ``AtomicSlot`` and viewed with ``ExclusiveSlotView``.
///
/// ```swift
/// @usableFromInline enum Slots: Int, AtomicSlotIndex { case state, upstream }
/// @usableFromInline var stateSlot = AtomicSlot(0)
/// @usableFromInline var upstreamSlot = ExclusiveSlot<Disposable?>(nil)
///
/// @inlinable var upstream: ExclusiveSlotView<Disposable?> {
///   ExclusiveSlotView(Slots.upstream, of: self)
/// }
/// ```
///
/// The slot is one of the object's ``AtomicSlotIndex`` slots: its index is the word it starts
/// at, so a slot wider than a word comes after the one-word slots (or gets an explicit raw
/// value), and `AtomicSlotLayoutTests` checks it like the atomic ones. Swift never reads or
/// writes the slot after the initialiser; the object's deinitialiser destroys its last value.
/// The owner says, where it declares the slot, how its accesses are kept from overlapping.
@frozen
@usableFromInline
package struct ExclusiveSlot<Value>: ~Copyable {
  @usableFromInline var value: Value

  /// A slot holding `value`.
  @inlinable
  package init(_ value: consuming Value) { self.value = value }
}

/// A view of the ``ExclusiveSlot`` of an object: its value, read and written in place.
@safe
@frozen
@usableFromInline
package struct ExclusiveSlotView<Value> {
  @usableFromInline let address: UnsafeMutablePointer<ExclusiveSlot<Value>>

  /// A view of the ``ExclusiveSlot`` `slot` of `object` (see there for the rules).
  @inlinable @inline(__always)
  package init<Index: AtomicSlotIndex>(_ slot: Index, of object: AnyObject) {
    unsafe address =
      (_getUnsafePointerToStoredProperties(object)
      + slot.rawValue &* MemoryLayout<Int>.stride)
      .assumingMemoryBound(to: ExclusiveSlot<Value>.self)
  }

  /// The slot's value, read in place (no copy to look at a field), written or modified;
  /// addressors, like `pointer.pointee`.
  @inlinable
  package var value: Value {
    @inline(__always) unsafeAddress {
      unsafe UnsafeRawPointer(address).assumingMemoryBound(to: Value.self)
    }
    @inline(__always) nonmutating unsafeMutableAddress {
      unsafe UnsafeMutableRawPointer(address).assumingMemoryBound(to: Value.self)
    }
  }

  /// Moves the value out, leaving `nil`: no copy, no release of the old value.
  @inlinable @inline(__always)
  package func take<Wrapped>() -> Wrapped? where Value == Wrapped? {
    unsafe address.pointee.value.take()
  }
}
