/// A weak reference whose reads pay no dynamic exclusivity check: the `weak` storage lives
/// behind a pointer instead of in a closure capture box or a class property.
///
/// Written only in `init`, read from any thread (Swift's weak references are thread-safe to
/// load).
@usableFromInline
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
  // Safety: the storage is written once, in `init`; weak loads are atomic.
  @usableFromInline
  struct Storage {
    @usableFromInline weak var object: Object?

    @inlinable
    init(_ object: Object) { self.object = object }
  }

  @usableFromInline let storage: UnsafeMutablePointer<Storage>

  @inlinable
  init(_ object: Object) {
    storage = .allocate(capacity: 1)
    storage.initialize(to: Storage(object))
  }

  deinit {
    storage.deinitialize(count: 1)
    storage.deallocate()
  }

  /// The object, or `nil` once it has been deinitialised.
  @inlinable
  var object: Object? { storage.pointee.object }
}
