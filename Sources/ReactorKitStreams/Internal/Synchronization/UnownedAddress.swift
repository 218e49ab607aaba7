import CReactorKitAtomics

/// A reference that keeps an object's memory allocated but not the object alive, and loads the
/// object only while it is alive: a weak reference without the side table.
///
/// A weak reference gives its object a side table, and from then on every retain and release of
/// the object, anywhere in the program, takes the slow path through it (about 150 instructions
/// per pair instead of about 10). The per-object storage tables keep a reference to every
/// reactor and view they serve; with a weak one, each of those objects would pay that for its
/// whole life. This holds one unowned count instead (the Swift runtime's
/// `swift_unownedRetain`): the object is deinitialised as usual when its last strong
/// reference goes, but its memory stays allocated until ``releaseMemory()``, so no other object
/// can take its address meanwhile, and ``object`` can ask the runtime to retain it only if its
/// deinitialiser has not begun (`swift_tryRetain`).
///
/// Native Swift objects only: on Apple platforms, where an owner may be an Objective-C object,
/// the tables keep weak references.
///
/// Safety contract: the maker calls ``releaseMemory()`` exactly once, after the last use of the
/// address (the storage tables do so in their storage's deinitialiser).
@safe
@frozen
@usableFromInline
package struct UnownedAddress: @unchecked Sendable {
  // Safety: the runtime's reference counts are atomic; only the address is copied.
  @usableFromInline let address: UnsafeMutableRawPointer

  /// Takes an unowned count on `object`: its memory stays allocated until ``releaseMemory()``.
  @inlinable
  package init(retainingMemoryOf object: AnyObject) {
    let address = unsafe Unmanaged.passUnretained(object).toOpaque()
    unsafe rk_runtime_unowned_retain(address)
    unsafe self.address = address
  }

  /// The object, retained for the caller, or `nil` once its deinitialiser has begun.
  @inlinable
  package var object: AnyObject? {
    guard unsafe rk_runtime_try_retain(address) else { return nil }
    return unsafe Unmanaged<AnyObject>.fromOpaque(address).takeRetainedValue()
  }

  /// Whether this is the address of `object` (no retain). While the memory is held no other
  /// object can have the address, so a live `object` at it is the one this was made from.
  @inlinable
  package func refers(to object: AnyObject) -> Bool {
    unsafe address == Unmanaged.passUnretained(object).toOpaque()
  }

  /// Gives back the unowned count; the last one frees the memory of a deinitialised object.
  /// No use of this value may follow.
  @inlinable
  package func releaseMemory() {
    unsafe rk_runtime_unowned_release(address)
  }
}
