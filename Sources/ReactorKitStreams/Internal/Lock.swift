#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A small non-recursive mutex built on `pthread_mutex_t`.
///
/// Used instead of `Synchronization.Mutex` because the latter produces false
/// thread-sanitizer reports on Linux. Never call user code while holding it. Visible to the
/// other modules of the package (`package`), never to users.
@usableFromInline
package final class Lock: @unchecked Sendable {
  // Safety: the mutex itself is the synchronisation primitive; its storage is never moved.
  @usableFromInline package let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @inlinable
  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let result = pthread_mutex_init(mutex, nil)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable
  package func lock() { pthread_mutex_lock(mutex) }

  @inlinable
  package func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` with the lock held. `body` must not call user code.
  @inlinable
  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A non-recursive pthread mutex living in memory that its owner allocated and initialised
/// (the state block of a subject's core or a reactor's engine): ``Lock`` without an object,
/// and an allocation, of its own.
///
/// The owner calls `pthread_mutex_init` before use and `pthread_mutex_destroy` before freeing
/// the memory. Never call user code while holding it.
@usableFromInline
package struct EmbeddedLock {
  @usableFromInline package let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @inlinable
  package init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { self.mutex = mutex }

  @inlinable
  package func lock() { pthread_mutex_lock(mutex) }

  @inlinable
  package func unlock() { pthread_mutex_unlock(mutex) }

  /// Runs `body` with the lock held. `body` must not call user code.
  @inlinable
  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A recursive mutex, for the rare places where the same thread may re-enter.
@usableFromInline
package final class RecursiveLock: @unchecked Sendable {
  // Safety: the mutex itself is the synchronisation primitive; its storage is never moved.
  @usableFromInline package let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @inlinable
  package init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    let result = pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable
  package func lock() { pthread_mutex_lock(mutex) }

  @inlinable
  package func unlock() { pthread_mutex_unlock(mutex) }

  @inlinable
  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// A value protected by a ``Lock``.
@usableFromInline
package final class LockedBox<Value>: @unchecked Sendable {
  // Safety: `value` is only touched inside `lock`.
  @usableFromInline package let lock = Lock()
  @usableFromInline package var value: Value

  @inlinable
  package init(_ value: Value) { self.value = value }

  @inlinable
  package func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
