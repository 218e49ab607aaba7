#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A non-recursive pthread mutex living in memory that its owner allocated and initialised
/// (the reactor core's body): `Lock` without an object, and an allocation, of its own.
///
/// The owner calls `pthread_mutex_init` before use and `pthread_mutex_destroy` before freeing
/// the memory. Never call user code while holding it.
@usableFromInline
struct BodyLock {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @inlinable
  init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
    self.mutex = mutex
  }

  @inlinable
  func lock() { pthread_mutex_lock(mutex) }

  @inlinable
  func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` with the lock held. `body` must not call user code.
  @inlinable
  func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
