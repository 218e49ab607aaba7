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
      at: .allocate(byteCount: EmbeddedLock.byteCount, alignment: EmbeddedLock.alignment),
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

// MARK: - EmbeddedLock's layout

extension EmbeddedLock {
  /// The bytes an embedded lock takes at the start of its memory (one `pthread_mutex_t`):
  /// what an owner that lays out its own block (a subject's core) leaves room for before its
  /// state, so that it never names the platform's mutex type itself.
  @inlinable package static var byteCount: Int { unsafe MemoryLayout<pthread_mutex_t>.stride }

  /// The alignment the memory of ``initialize(at:recursive:)`` needs.
  @inlinable package static var alignment: Int { unsafe MemoryLayout<pthread_mutex_t>.alignment }
}

// MARK: - Condition

/// A pthread condition variable used together with a ``Lock``.
@safe
@usableFromInline
package final class Condition: @unchecked Sendable {
  // Safety: the condition variable is itself a synchronisation primitive; its storage is never
  // moved, and it is only waited on with the paired lock held.
  @usableFromInline package let condition: UnsafeMutablePointer<pthread_cond_t>

  @usableFromInline
  package init() {
    unsafe condition = .allocate(capacity: 1)
    unsafe condition.initialize(to: pthread_cond_t())
    let result = unsafe pthread_cond_init(condition, nil)
    precondition(result == 0, "pthread_cond_init failed: \(result)")
  }

  deinit {
    unsafe pthread_cond_destroy(condition)
    unsafe condition.deinitialize(count: 1)
    unsafe condition.deallocate()
  }

  /// Blocks until signalled. Call with `lock` held; it is held again on return. Wake-ups can be
  /// spurious: wait in a loop that re-checks the awaited state.
  @usableFromInline
  package func wait(_ lock: Lock) {
    unsafe pthread_cond_wait(condition, lock.mutex)
  }

  /// Wakes the thread waiting on this condition, if any.
  @usableFromInline
  package func signal() {
    unsafe pthread_cond_signal(condition)
  }

  /// Wakes every thread waiting on this condition.
  @usableFromInline
  package func broadcast() {
    unsafe pthread_cond_broadcast(condition)
  }
}
