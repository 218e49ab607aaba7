#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A pthread condition variable used together with a ``Lock``.
@usableFromInline
package final class Condition: @unchecked Sendable {
  // Safety: the condition variable is itself a synchronisation primitive; its storage is never
  // moved, and it is only waited on with the paired lock held.
  @usableFromInline package let condition: UnsafeMutablePointer<pthread_cond_t>

  @usableFromInline
  package init() {
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    let result = pthread_cond_init(condition, nil)
    precondition(result == 0, "pthread_cond_init failed: \(result)")
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deinitialize(count: 1)
    condition.deallocate()
  }

  /// Blocks until signalled. Call with `lock` held; it is held again on return. Wake-ups can be
  /// spurious: wait in a loop that re-checks the awaited state.
  @usableFromInline
  package func wait(_ lock: Lock) {
    pthread_cond_wait(condition, lock.mutex)
  }

  /// Wakes the thread waiting on this condition, if any.
  @usableFromInline
  package func signal() {
    pthread_cond_signal(condition)
  }

  /// Wakes every thread waiting on this condition.
  @usableFromInline
  package func broadcast() {
    pthread_cond_broadcast(condition)
  }
}
