/// A reference that does not retain its object: the package's safe face of `Unmanaged` and
/// `unowned(unsafe)`, for hot paths where the owner already keeps the object alive (a
/// subscriber list walked under a lock, a back-reference from a child its parent owns).
///
/// Safety contract, stated once here instead of at every use: whoever makes an
/// `UnretainedReference` guarantees that the object outlives every use of it. The engines do
/// so by keeping the object in a retained list or field for as long as the reference is
/// reachable; each such owner says so where it stores the reference.
@safe
@frozen
@usableFromInline
package struct UnretainedReference<Object: AnyObject>: @unchecked Sendable {
  // Safety: only the address travels; the object's own synchronisation guards its state.
  @usableFromInline let unmanaged: Unmanaged<Object>

  /// A reference to `object` that does not retain it.
  @inlinable @inline(__always)
  package init(_ object: Object) { unsafe unmanaged = .passUnretained(object) }

  /// The object, retained for the caller (+1 while the caller holds it).
  @inlinable @inline(__always)
  package var object: Object { unsafe unmanaged.takeUnretainedValue() }

  /// Runs `body` with the object without retaining or releasing it around the call; the
  /// cheapest way to call one method on an object someone else keeps alive.
  @inlinable @inline(__always)
  package func withObject<Result>(_ body: (Object) throws -> Result) rethrows -> Result {
    try unsafe unmanaged._withUnsafeGuaranteedRef(body)
  }

  /// Whether this refers to `other` (identity, no retain).
  @inlinable @inline(__always)
  package func refers(to other: AnyObject) -> Bool {
    unsafe unmanaged.toOpaque() == Unmanaged.passUnretained(other).toOpaque()
  }

  /// The object's identity.
  @inlinable @inline(__always)
  package var identifier: ObjectIdentifier { ObjectIdentifier(object) }
}

extension UnretainedReference: Equatable {
  @inlinable @inline(__always)
  package static func == (lhs: Self, rhs: Self) -> Bool {
    unsafe lhs.unmanaged.toOpaque() == rhs.unmanaged.toOpaque()
  }
}
