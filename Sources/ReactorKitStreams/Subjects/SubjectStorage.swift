// The storage of the subjects' engine: how ``SubjectCore`` lays out and reaches its memory
// (one allocation holding the mutex and the lock-guarded ``SubjectCore/State``), and the
// unretained walks over observer lists (delivery to each entry). The behaviour is in
// `SubjectCore.swift`.

/// The shared machinery of every subject: the observer list and serialised delivery.
///
/// Delivery is serial even when `on` is called from several threads at once: the first caller
/// becomes the deliverer and drains a FIFO queue; others (and reentrant calls from inside an
/// observer) enqueue and return. Observers are never called with the lock held.
///
/// Who delivers is decided by ``gate``, the package's one ``Gate`` (its claim / announce /
/// release protocol and memory orderings are documented there), so that a deliverer that
/// finds nothing queued stops without taking the lock again: busy while someone delivers,
/// announced once work (or an observer-list change) was queued for that deliverer. Work is
/// queued, and the gate claimed or announced, only with the lock held; the deliverer leaves
/// with one unlocked release and, when that fails, takes the lock and drains.
///
/// The deliverer releases each queued item once delivered. After ``handOffThreshold`` items,
/// while more are queued, it asks for a hand-off (``HandOff``): the next sender on another
/// thread accepts, waits (without the lock) until the deliverer finished its current item and
/// stepped aside, keeping the gate for it, and drains in its place; a sender that waited
/// ``handOffPatience`` in vain withdraws and returns (the deliverer may be blocked on it,
/// through another subject). So no caller delivers for ever under sustained senders, and the
/// order is kept: one deliverer at a time, one queue.
///
/// A core made with `lockFreeNext` also delivers a `.next` event without the lock
/// (``publishNextIfIdle(_:)``): a caller that claims the idle gate with one compare-and-swap
/// delivers to ``published``, a copy of the observer list that only a holder of the gate
/// reads or writes. Whoever changes the list while nobody holds the gate takes the gate for
/// the change and updates the copy; while someone delivers, the change makes a new list (the
/// deliverer's copy stays intact) and announces itself, so the deliverer updates the copy,
/// under the lock, before it leaves.
@safe
@usableFromInline
final class SubjectCore<Element>: @unchecked Sendable {
  // Safety: `state` is only read or written with `lock` held, except `state.published`, which
  // only the holder of the gate reads or writes; `gate` is atomic (see above); `body`,
  // `lock`, `state` and `operations` are immutable.

  /// The lock-guarded state. Kept behind a pointer so the hot path pays no dynamic
  /// exclusivity checks (the lock already gives exclusive access).
  @safe
  @usableFromInline
  struct State {
    @usableFromInline var entries = ContiguousArray<SubjectEntry<Element>>()
    /// `entries` as of the last time nobody delivered: what a lock-free deliverer visits. The
    /// same array as `entries` whenever the gate is idle (only in a `lockFreeNext` core).
    @usableFromInline var published = ContiguousArray<SubjectEntry<Element>>() {
      didSet { unsafe publishedEntries = unsafe published.withUnsafeBufferPointer { unsafe $0 } }
    }
    /// The elements of `published`, visited without retaining the array: `published` keeps
    /// them alive and is replaced, never changed in place.
    @usableFromInline var publishedEntries = unsafe UnsafeBufferPointer<SubjectEntry<Element>>(
      start: nil, count: 0)
    @usableFromInline var stopEvent: Event<Element>?
    /// The current value of a ``BehaviorSubject`` (`nil` in other subjects).
    @usableFromInline var current: Element?
    @usableFromInline var isDisposed = false
    /// Work queued for the deliverer; each item is released as soon as it is delivered.
    @usableFromInline var pending = Queue<Work>()
    /// Where the hand-off of a long drain stands (see ``drainPendingAndUnlock()``).
    @usableFromInline var handOff = HandOff.none

    @inlinable init() {}
  }

  /// The storage of ``gate``; an ``AtomicSlot``, so the first stored property.
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case gate }
  @usableFromInline var gateSlot = AtomicSlot(Gate.idle)
  /// One allocation holding the mutex, then the ``State``.
  @usableFromInline let body: UnsafeMutableRawPointer
  /// The lock guarding ``state``: the mutex at the start of ``body``.
  @usableFromInline let lock: EmbeddedLock
  @usableFromInline let state: UnsafeMutablePointer<State>
  /// Who delivers: ``Gate/busy`` while someone does, ``Gate/announced`` once work or an
  /// observer-list change was queued for that deliverer (see ``Gate``).
  @inlinable var gate: Gate { Gate(Slots.gate, of: self) }
  /// Whether `.next` events may be delivered without the lock (see the type's comment).
  @usableFromInline let lockFreeNext: Bool
  @usableFromInline
  let operations: (SubjectCore<Element>, Operation, SubjectEntry<Element>?) -> Void

  /// Creates a core; with `lockFreeNext`, ``publishNextIfIdle(_:)`` may be used.
  @inlinable
  init(lockFreeNext: Bool = false) {
    self.lockFreeNext = lockFreeNext
    let stateAlignment = MemoryLayout<State>.alignment
    let stateOffset = aligned(EmbeddedLock.byteCount, to: stateAlignment)
    let body = UnsafeMutableRawPointer.allocate(
      byteCount: stateOffset + MemoryLayout<State>.stride,
      alignment: Swift.max(EmbeddedLock.alignment, stateAlignment))
    lock = unsafe EmbeddedLock.initialize(at: body)
    unsafe state = unsafe (body + stateOffset).initializeMemory(as: State.self, to: State())
    unsafe self.body = unsafe body
    operations = { core, operation, entry in
      switch operation {
      case .remove: if let entry { core.remove(entry) }
      case .detach: core.detach()
      case .destroy: core.destroyBody()
      }
    }
  }

  deinit {
    operations(self, .destroy, nil)
  }

  /// Deinitialises and frees ``body``: the mutex and the state. Only the deinitialiser calls
  /// this (through ``operations``, so that it runs specialised).
  @inlinable
  func destroyBody() {
    unsafe state.deinitialize(count: 1)
    lock.destroy()
    unsafe body.deallocate()
  }

  // MARK: The state, with the lock held

  /// The registered observers. Change them through ``modifyEntriesLocked(_:)``.
  @inlinable var entries: ContiguousArray<SubjectEntry<Element>> {
    get { unsafe state.pointee.entries }
    _modify { yield unsafe &state.pointee.entries }
  }
  @inlinable var stopEvent: Event<Element>? {
    get { unsafe state.pointee.stopEvent }
    set { unsafe state.pointee.stopEvent = newValue }
  }
  /// The current value of a ``BehaviorSubject`` (`nil` in other subjects).
  @inlinable var current: Element? {
    get { unsafe state.pointee.current }
    set { unsafe state.pointee.current = newValue }
  }
  @inlinable var isDisposed: Bool {
    get { unsafe state.pointee.isDisposed }
    set { unsafe state.pointee.isDisposed = newValue }
  }
  @inlinable var pending: Queue<Work> {
    get { unsafe state.pointee.pending }
    _modify { yield unsafe &state.pointee.pending }
  }
  @inlinable var handOff: HandOff {
    get { unsafe state.pointee.handOff }
    set { unsafe state.pointee.handOff = newValue }
  }

  // MARK: The lock-free deliverers' list, with the gate held

  /// What a lock-free deliverer visits (see the type's comment). Read or write it holding the
  /// gate; setting it also records its elements for ``deliverToPublished(_:)``.
  @inlinable var published: ContiguousArray<SubjectEntry<Element>> {
    get { unsafe state.pointee.published }
    set { unsafe state.pointee.published = newValue }
  }

  /// Whether ``published`` is the same array as ``entries``. Call with the lock and the gate
  /// held.
  @inlinable
  var isPublishedCurrentLocked: Bool {
    let published = unsafe state.pointee.published.withUnsafeBufferPointer { $0.baseAddress }
    let entries = unsafe state.pointee.entries.withUnsafeBufferPointer { $0.baseAddress }
    return unsafe published == entries
      && state.pointee.published.count == state.pointee.entries.count
  }

  /// Delivers `event` to each entry of ``published``, without retaining the array or the
  /// entries: `published` keeps them alive while the caller holds the gate.
  @inlinable
  func deliverToPublished(_ event: Event<Element>) {
    let buffer = unsafe state.pointee.publishedEntries
    for index in buffer.indices {
      unsafe Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef { $0.deliver(event) }
    }
  }

  // MARK: Walks over observer lists

  /// Delivers `event` to each of `targets`. The array keeps the entries alive, so they are
  /// visited without retaining each one.
  @inlinable
  static func deliver(_ event: Event<Element>, to targets: ContiguousArray<SubjectEntry<Element>>) {
    unsafe targets.withUnsafeBufferPointer { buffer in
      for index in buffer.indices {
        unsafe Unmanaged.passUnretained(buffer[index])._withUnsafeGuaranteedRef {
          $0.deliver(event)
        }
      }
    }
  }

  /// The index of `entry` in `entries`, by identity, visiting them without retaining each.
  @inlinable
  static func index(
    of entry: SubjectEntry<Element>, in entries: ContiguousArray<SubjectEntry<Element>>
  ) -> Int? {
    unsafe entries.withUnsafeBufferPointer { buffer -> Int? in
      for index in buffer.indices where unsafe buffer[index] === entry { return index }
      return nil
    }
  }
}
