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

  /// The value, read, written or modified in place.
  @inlinable
  package var value: Value {
    @inline(__always) get { unsafe address.pointee }
    @inline(__always) nonmutating _modify { yield unsafe &address.pointee }
  }
}
