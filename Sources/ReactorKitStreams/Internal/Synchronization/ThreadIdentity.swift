#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A number that identifies the calling thread among the threads alive right now (its
/// `pthread_t`), never 0.
///
/// Used by the engines (store, reactor, subjects) and the plugins to tell reentrant calls
/// (made by the thread that is processing) from calls made by other threads. A thread only ever compares the identity it recorded itself, so a value can
/// be reused by a later thread without harm.
@inlinable @inline(__always)
package func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
    return unsafe UInt(bitPattern: pthread_self())
  #elseif canImport(Glibc)
    return UInt(pthread_self())
  #else
    return unsafeBitCast(pthread_self(), to: UInt.self)
  #endif
}
