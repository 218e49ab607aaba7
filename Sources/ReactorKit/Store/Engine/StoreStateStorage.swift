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
@safe
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
    unsafe value = .allocate(capacity: 1)
    unsafe value.initialize(to: state)
  }

  deinit {
    unsafe value.deinitialize(count: 1)
    unsafe value.deallocate()
  }

  /// The published state, for the thread that holds the store's turn (the only writer): read
  /// in place, without the lock.
  @inlinable @inline(__always)
  var turnValue: State {
    unsafeAddress { unsafe UnsafePointer(value) }
  }

  /// The published state as the turn holder's selection reads it (see
  /// ``StorePublishedState``).
  @inlinable @inline(__always)
  var published: StorePublishedState<State> { unsafe StorePublishedState(value) }

  /// A copy of the state, from any thread.
  @inlinable
  func read() -> State {
    lock.lock()
    defer { lock.unlock() }
    readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
    // A write without the lock may have started before this reader counted itself; it swaps
    // one value and lowers `writing` at once.
    while writing.load(ordering: .sequentiallyConsistent) { sched_yield() }
    let copy = unsafe value.pointee
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
      unsafe swap(&previous, &value.pointee)
      writing.store(false, ordering: .releasing)
    } else {
      writing.store(false, ordering: .releasing)
      lock.lock()
      unsafe swap(&previous, &value.pointee)
      lock.unlock()
    }
  }
}

/// The published state of a store, borrowed by the thread that holds the store's turn: what
/// selection groups evaluate after each reduction, without copying the state.
///
/// Safety contract: made only by ``StoreStateStorage/published``, and used only by the turn
/// holder while the storage is alive (the store's core keeps it, and nothing writes the state
/// while the turn holder reads it); never kept beyond the call it is handed to.
@safe
@frozen
@usableFromInline
struct StorePublishedState<State> {
  @usableFromInline let address: UnsafePointer<State>

  @inlinable @inline(__always)
  init(_ address: UnsafeMutablePointer<State>) {
    unsafe self.address = UnsafePointer(address)
  }

  /// The state, borrowed in place.
  @inlinable @inline(__always)
  var value: State {
    unsafeAddress { unsafe address }
  }

  /// The value of a stored property, loaded straight from the state's memory.
  @inlinable @inline(__always)
  subscript<Value>(stored path: StoredPropertyPath<State, Value>) -> Value {
    unsafe UnsafeRawPointer(address).load(fromByteOffset: path.offset, as: Value.self)
  }
}

/// A key path made only of stored properties of structs, as a byte offset into its root (see
/// `MemoryLayout.offset(of:)`): read with one load instead of a key-path projection.
@frozen
@usableFromInline
struct StoredPropertyPath<Root, Value> {
  /// Where the value lies in `Root`'s memory; only ever `MemoryLayout<Root>.offset(of:)`.
  @usableFromInline let offset: Int

  /// The offset of `path`, or `nil` when `path` is not a chain of stored properties of
  /// structs (a computed property, a class, an optional chain…).
  @inlinable
  init?(_ path: KeyPath<Root, Value>) {
    guard let offset = MemoryLayout<Root>.offset(of: path) else { return nil }
    self.offset = offset
  }
}
