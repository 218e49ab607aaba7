/// A weak reference in an object of its own, for closures that must not retain `Object`.
///
/// The reference is a `weak let`: immutable, so reading it pays no dynamic exclusivity check,
/// and the object is one allocation (no separate storage for the weak reference).
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
  // Safety: `object` is immutable; weak loads are atomic.

  /// The object, or `nil` once it has been deinitialised.
  @usableFromInline weak let object: Object?

  @inlinable
  init(_ object: Object) {
    self.object = object
  }
}
