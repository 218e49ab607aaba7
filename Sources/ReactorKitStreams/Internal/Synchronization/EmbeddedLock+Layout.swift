#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension EmbeddedLock {
  /// The bytes an embedded lock takes at the start of its memory (one `pthread_mutex_t`):
  /// what an owner that lays out its own block (a subject's core) leaves room for before its
  /// state, so that it never names the platform's mutex type itself.
  @inlinable package static var byteCount: Int { unsafe MemoryLayout<pthread_mutex_t>.stride }

  /// The alignment the memory of ``initialize(at:recursive:)`` needs.
  @inlinable package static var alignment: Int { unsafe MemoryLayout<pthread_mutex_t>.alignment }
}
