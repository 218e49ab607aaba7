#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A small mutex built on `pthread_mutex_t`, non-recursive unless made with `recursive`.
///
/// Used instead of `Synchronization.Mutex` because the latter produces false
/// thread-sanitizer reports on Linux. Never call user code while holding it. Visible to the
/// other modules of the package (`package`), never to users.
@usableFromInline
package final class Lock: @unchecked Sendable {
  // Safety: the mutex itself is the synchronisation primitive; its storage is never moved.
  @usableFromInline package let embedded: EmbeddedLock

  /// Creates a mutex; a `recursive` one may be locked again by the thread that holds it.
  @inlinable
  package init(recursive: Bool = false) {
    embedded = unsafe EmbeddedLock.initialize(
      at: .allocate(
        byteCount: MemoryLayout<pthread_mutex_t>.stride,
        alignment: MemoryLayout<pthread_mutex_t>.alignment),
      recursive: recursive)
  }

  deinit {
    embedded.destroy()
    unsafe UnsafeMutableRawPointer(embedded.mutex).deallocate()
  }

  /// The pthread mutex, for `pthread_cond_wait`.
  @inlinable
  package var mutex: UnsafeMutablePointer<pthread_mutex_t> { unsafe embedded.mutex }

  @inlinable
  package func lock() { embedded.lock() }

  @inlinable
  package func unlock() { embedded.unlock() }

  /// Runs `body` with the lock held. `body` must not call user code.
  @inlinable
  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    try embedded.withLock(body)
  }
}

/// A pthread mutex living in memory that its owner allocated (``Lock``'s own, or the state
/// block of a subject's core or a reactor's engine, which saves an object and an allocation).
///
/// The owner creates it with ``initialize(at:recursive:)`` and calls ``destroy()`` before
/// freeing the memory. Never call user code while holding it.
@safe
@usableFromInline
package struct EmbeddedLock {
  @usableFromInline package let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @inlinable
  package init(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) { unsafe self.mutex = unsafe mutex }

  /// Initialises a mutex at the start of `memory`, which must have room for a
  /// `pthread_mutex_t` at its alignment.
  @inlinable
  package static func initialize(at memory: UnsafeMutableRawPointer, recursive: Bool = false)
    -> EmbeddedLock
  {
    let mutex = unsafe memory.initializeMemory(as: pthread_mutex_t.self, to: pthread_mutex_t())
    let result: Int32
    if recursive {
      var attributes = pthread_mutexattr_t()
      unsafe pthread_mutexattr_init(&attributes)
      unsafe pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
      result = unsafe pthread_mutex_init(mutex, &attributes)
      unsafe pthread_mutexattr_destroy(&attributes)
    } else {
      result = unsafe pthread_mutex_init(mutex, nil)
    }
    precondition(result == 0, "pthread_mutex_init failed: \(result)")
    return unsafe EmbeddedLock(mutex)
  }

  /// Destroys the mutex; its memory can then be freed.
  @inlinable
  package func destroy() {
    unsafe pthread_mutex_destroy(mutex)
    unsafe mutex.deinitialize(count: 1)
  }

  @inlinable
  package func lock() { unsafe pthread_mutex_lock(mutex) }

  @inlinable
  package func unlock() { unsafe pthread_mutex_unlock(mutex) }

  /// Runs `body` with the lock held. `body` must not call user code.
  @inlinable
  package func withLock<T>(_ body: () throws -> T) rethrows -> T {
    unsafe pthread_mutex_lock(mutex)
    defer { unsafe pthread_mutex_unlock(mutex) }
    return try body()
  }
}

/// `offset` rounded up to a multiple of `alignment` (a power of two): where a value of that
/// alignment starts after `offset` bytes of a block.
@inlinable
package func aligned(_ offset: Int, to alignment: Int) -> Int {
  (offset + alignment - 1) & ~(alignment - 1)
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
