import ReactorKitStreams

/// The published state of a store: reduced in place by the processing thread, read from any
/// thread.
///
/// Kept in its own object, so middleware can read the state (`getState`) without holding the
/// store itself, and with its own lock, so readers never contend with dispatching threads.
///
/// ## Reducing in place
///
/// The turn holder reduces the one stored state through ``mutate(_:)``: the reducer's `inout`
/// reaches the stored value itself, so with nobody else holding the state a change to one
/// element of a large array copies nothing. A reader that copied the state (``read()``) holds
/// its buffers, so the next change copies what it changes once (copy-on-write), and nothing
/// otherwise.
///
/// A reader never sees a state being changed: it copies the state before a reduction starts
/// or after it ends, never during it. Writer and readers meet through two atomics in the
/// manner of Dekker's algorithm: the writer raises ``writing`` and then looks at ``readers``;
/// a reader counts itself in ``readers`` and then looks at ``writing``. Both are sequentially
/// consistent, so at least one of the two sees the other:
/// - the writer sees a reader: it takes and drops ``lock`` before it starts, which waits for a
///   reader copying right now (readers copy with the lock held); any later reader sees
///   `writing` raised;
/// - a reader sees `writing` raised: it waits on ``finished`` until the writer lowers it and,
///   seeing a reader counted, broadcasts under the lock (so the wake-up cannot be lost).
/// A reader on the writer's own thread (the reducer, or something it calls, reading
/// `currentState`) does not wait: it copies the state as the reducer has changed it so far.
///
/// So a reader on another thread may wait for one reduction to end; the turn holder never
/// waits for a reader longer than one copy of the state.
@safe
@usableFromInline
final class StoreStateStorage<State>: @unchecked Sendable {
  // Safety: `value` is changed only by the thread that holds the store's turn, inside
  // `mutate` with `writing` raised, after any reader that counted itself before has finished
  // copying (it copies with `lock` held, which the writer then takes once). Readers copy it
  // with `lock` held, counted in `readers`, and only after `writing` was seen lowered
  // (acquiring), or on the writer's own thread (`writerThread`), so no copy overlaps a write
  // made on another thread. The turn holder may read it without either because no one else
  // writes it.

  /// The storage of ``writing``, ``readers`` and ``writerThread``: ``AtomicSlot``s, so the
  /// first stored properties.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case writing, readers, writerThread }
  @usableFromInline var writingSlot = AtomicSlot(false)
  @usableFromInline var readersSlot = AtomicSlot(0)
  @usableFromInline var writerThreadSlot = AtomicSlot(UInt(0))
  @usableFromInline let lock = Lock()
  /// Signalled (under ``lock``) when a reduction that a reader waits for has ended.
  @usableFromInline let finished = Condition()
  @usableFromInline let value: UnsafeMutablePointer<State>
  /// Raised by the writer while it changes the state.
  @inlinable var writing: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.writing, of: self) }
  /// Readers copying the state or waiting to (each copies with `lock` held).
  @inlinable var readers: UnsafeAtomic<Int> { UnsafeAtomic(Slots.readers, of: self) }
  /// The thread of the last writer: a reader on that thread while `writing` is raised is the
  /// reduction itself. Only the writer writes it, with its own identity.
  @inlinable var writerThread: UnsafeAtomic<UInt> {
    UnsafeAtomic(Slots.writerThread, of: self)
  }

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

  /// A copy of the state, from any thread: the state before or after a reduction, never one
  /// being changed (except on the reducing thread itself, see the type's notes).
  @inlinable
  func read() -> State {
    lock.lock()
    defer { lock.unlock() }
    readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
    while writing.load(ordering: .sequentiallyConsistent) {
      if writerThread.load(ordering: .relaxed) == currentThreadIdentity() { break }
      finished.wait(lock)
    }
    let copy = unsafe value.pointee
    readers.wrappingSubtract(1, ordering: .releasing)
    return copy
  }

  /// Changes the state in place with `body`. Only the turn holder calls this.
  @inlinable
  func mutate(_ body: (inout State) -> Void) {
    writerThread.store(currentThreadIdentity(), ordering: .relaxed)
    writing.store(true, ordering: .sequentiallyConsistent)
    if readers.load(ordering: .sequentiallyConsistent) != 0 {
      // A reader counted itself before it could see `writing`: wait for its copy to end.
      lock.lock()
      lock.unlock()
    }
    unsafe body(&value.pointee)
    writing.store(false, ordering: .sequentiallyConsistent)
    if readers.load(ordering: .sequentiallyConsistent) != 0 {
      lock.lock()
      finished.broadcast()
      lock.unlock()
    }
  }

  /// Publishes `state` in place of the current one. Only the turn holder calls this. The
  /// previous state is released after the write, outside the lock.
  @inlinable
  func replace(with state: consuming State) {
    var previous = state
    mutate { swap(&previous, &$0) }
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
