/// A value in an object of its own, for state that its owner already serialises: read and
/// written one access at a time, never from two threads at once and never re-entrantly (the
/// reductions of one store, say). The serial counterpart of ``LockedBox``: no lock, and no
/// dynamic exclusivity check (a runtime call per access otherwise, costly on a path that runs
/// per action).
///
/// Safety contract, stated once here instead of at every use: whoever makes a `SerialBox`
/// guarantees that accesses to ``value`` never overlap, including a modification in progress
/// (`reduce(&box.value, …)`) and another access made from inside it. The owner says where it
/// keeps that promise.
@safe
@usableFromInline
package final class SerialBox<Value>: @unchecked Sendable {
  // Safety: see the contract above; the owner serialises every access.
  @exclusivity(unchecked) @usableFromInline var storage: Value

  /// A box holding `value`.
  @inlinable
  package init(_ value: Value) { unsafe storage = value }

  /// The value, read or modified in place.
  @inlinable
  package var value: Value {
    @inline(__always) _read { yield unsafe storage }
    @inline(__always) _modify { yield unsafe &storage }
  }
}
