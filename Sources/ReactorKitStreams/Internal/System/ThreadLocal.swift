#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One word per thread under a pthread key: `0` until the thread sets it.
///
/// For answers a thread computes once and keeps (``MainScheduler``'s "is this the main
/// thread"). Make one per purpose, as a `static let`: the key is never deleted.
@safe
@usableFromInline
package struct ThreadLocalWord: @unchecked Sendable {
  // Safety: a pthread key is immutable once created; each thread reads and writes its own word.
  @usableFromInline let key: pthread_key_t

  /// Creates the key.
  package init() {
    var key = pthread_key_t()
    let result = unsafe pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed: \(result)")
    self.key = key
  }

  /// The calling thread's word.
  @inlinable
  package var value: UInt {
    get { unsafe UInt(bitPattern: pthread_getspecific(key)) }
    nonmutating set { unsafe _ = pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
  }
}

/// One object per thread under a pthread key, retained by the key and released when its thread
/// exits: ``Trampoline``'s per-thread queue.
///
/// Make one per purpose, as a `static let`: the key is never deleted.
@safe
@usableFromInline
package struct ThreadLocalReference<Object: AnyObject>: @unchecked Sendable {
  // Safety: a pthread key is immutable once created; each thread reads and writes its own
  // object, which the key keeps alive until the thread exits.
  @usableFromInline let key: pthread_key_t

  /// Creates the key; a thread's object is released when the thread exits.
  package init() {
    var key = pthread_key_t()
    #if canImport(Darwin)
      let result = unsafe pthread_key_create(&key) { pointer in
        unsafe Unmanaged<AnyObject>.fromOpaque(pointer).release()
      }
    #else
      let result = unsafe pthread_key_create(&key) { pointer in
        guard let pointer = unsafe pointer else { return }
        unsafe Unmanaged<AnyObject>.fromOpaque(pointer).release()
      }
    #endif
    precondition(result == 0, "pthread_key_create failed: \(result)")
    self.key = key
  }

  /// The calling thread's object, not retained (the thread keeps it alive until it exits, so
  /// it may be used for as long as the caller runs on this thread); `nil` before ``set(_:)``.
  @inlinable
  package var current: UnretainedReference<Object>? {
    guard let pointer = unsafe pthread_getspecific(key) else { return nil }
    return unsafe Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
      UnretainedReference($0)
    }
  }

  /// Makes `object` the calling thread's object, retained until the thread exits.
  ///
  /// - Precondition: The thread has no object yet (it would never be released).
  @inlinable
  package func set(_ object: Object) {
    precondition(unsafe pthread_getspecific(key) == nil, "ThreadLocalReference: set twice.")
    unsafe _ = pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
  }
}
