import ReactorKitStreams

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The published state of a store: written by the processing thread, read from any thread.
///
/// Kept in its own object, so middleware can read the state (`getState`) without holding the
/// store itself, and with its own lock, so readers never contend with dispatching threads.
///
/// The writer takes the lock only when a reader is present. Writer and readers meet through
/// two atomics in the manner of Dekker's algorithm: the writer raises ``writing`` and then
/// looks at ``readers``; a reader counts itself in ``readers`` and then looks at ``writing``.
/// Both are sequentially consistent, so at least one of the two sees the other: either the
/// writer sees the reader and writes under the lock (which the reader holds while it copies),
/// or the reader sees the write in progress and waits for it (a swap of one value, no user
/// code) before it copies.
@usableFromInline
final class StoreStateStorage<State>: @unchecked Sendable {
  // Safety: `value` is written only by the thread that holds the store's turn, either with
  // `lock` held or, when no reader had counted itself in `readers`, with `writing` raised.
  // Readers copy it with `lock` held, counted in `readers`, and after `writing` was seen
  // lowered (acquiring), so no copy overlaps a write. The turn holder may read it without
  // either because no one else writes it.

  /// The storage of ``writing`` and ``readers``: ``AtomicSlot``s, so the first stored
  /// properties.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case writing, readers }
  @usableFromInline var writingSlot = AtomicSlot(false)
  @usableFromInline var readersSlot = AtomicSlot(0)
  @usableFromInline let lock = Lock()
  @usableFromInline let value: UnsafeMutablePointer<State>
  /// Raised by the writer around a write made without the lock.
  @inlinable var writing: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.writing, of: self) }
  /// Readers copying the value right now (each holds `lock`, so at most one).
  @inlinable var readers: UnsafeAtomic<Int> { UnsafeAtomic(Slots.readers, of: self) }

  @inlinable
  init(_ state: State) {
    value = .allocate(capacity: 1)
    value.initialize(to: state)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
  }

  /// A copy of the state, from any thread.
  @inlinable
  func read() -> State {
    lock.lock()
    defer { lock.unlock() }
    readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
    // A write without the lock may have started before this reader counted itself; it swaps
    // one value and lowers `writing` at once.
    while writing.load(ordering: .sequentiallyConsistent) { sched_yield() }
    let copy = value.pointee
    readers.wrappingSubtract(1, ordering: .releasing)
    return copy
  }

  /// Publishes `state`. Only the turn holder calls this. The previous state is released
  /// after the write, so no deinitialiser runs while the lock is held or `writing` raised.
  @inlinable
  func replace(with state: consuming State) {
    var previous = state
    writing.store(true, ordering: .sequentiallyConsistent)
    if readers.load(ordering: .sequentiallyConsistent) == 0 {
      swap(&previous, &value.pointee)
      writing.store(false, ordering: .releasing)
    } else {
      writing.store(false, ordering: .releasing)
      lock.lock()
      swap(&previous, &value.pointee)
      lock.unlock()
    }
  }
}
