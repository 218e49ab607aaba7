import ReactorKit

/// The inspector's bounded timeline: the newest `capacity` events, numbered from 1 without
/// gaps, holding at most about `byteBudget` bytes. Appending never waits for a reader's batch
/// and never grows the ring; a reader that falls behind by more than the capacity learns how
/// many events it missed.
///
/// This file holds the ring's memory and the accessors that reach it; the ring's logic (the
/// lock, appending, the byte budget, reading) is in EventRing.swift and uses only those.
///
/// ## The byte budget
///
/// Each event is appended with an estimate of the bytes it keeps alive (its states' storage
/// that no earlier event shares, see ``RetainedBytes``), and each cached rendering counts its
/// length. When the total passes `byteBudget`, the oldest events are dropped (their values
/// released after the lock) until it fits again, the newest event always kept; readers are
/// told about them as about overwritten events (the stream's gap marker).
///
/// The slots live in memory allocated once (no array copy-on-write or exclusivity checks on
/// the app's thread), initialised as the first `capacity` events arrive.
///
/// ## The lock
///
/// Everything is guarded by one spin lock, a word taken with a compare-and-swap and released
/// with a plain store: on the app's thread an append costs one atomic instruction, and the
/// event it displaces is released after the lock. Readers (the server's threads) hold the
/// lock for at most ``eventsPerLock`` events at a time, copying a few references each, never
/// while they allocate or render, so an append waits at most for those copies. A reader that
/// finds an event it was about to read already overwritten stops there; its next read
/// reports the events it missed (the stream's gap marker).
///
/// - Complexity: Appending is O(1); reading `n` events is O(n).
@safe
final class EventRing: @unchecked Sendable {
  // Safety: `slots`, `renderings`, `costs` and `counters` are only accessed with the spin
  // lock held (`lock()`/`unlock()`, acquiring and releasing ``lockWord``); ``latest`` is
  // atomic. Both atomic words live in `words`, allocated once and only accessed atomically.
  let capacity: Int
  /// The most bytes the events (and their cached renderings) may keep alive, approximately.
  let byteBudget: Int
  /// The events; the first ``initializedSlots`` are initialised.
  private let slots: UnsafeMutablePointer<RecordedEvent>
  /// Each slot's cached rendering (all initialised, `nil` when not rendered).
  private let renderings: UnsafeMutablePointer<String?>
  /// The bytes each slot's event (and its cached rendering) is counted for.
  private let costs: UnsafeMutablePointer<Int>
  /// The counters, named by the accessors below.
  private let counters: UnsafeMutablePointer<UInt64>
  /// The spin lock's word (0 free, 1 held), then ``latestSequence``.
  private let words: UnsafeMutableRawPointer

  init(capacity: Int, byteBudget: Int = .max) {
    self.capacity = max(1, capacity)
    self.byteBudget = max(0, byteBudget)
    unsafe slots = .allocate(capacity: self.capacity)
    unsafe renderings = .allocate(capacity: self.capacity)
    unsafe renderings.initialize(repeating: nil, count: self.capacity)
    unsafe costs = .allocate(capacity: self.capacity)
    unsafe costs.initialize(repeating: 0, count: self.capacity)
    unsafe counters = .allocate(capacity: 6)
    unsafe counters.initialize(repeating: 0, count: 6)
    unsafe counters[0] = 1
    unsafe counters[2] = 1
    unsafe counters[5] = 1
    unsafe words = .allocate(byteCount: 16, alignment: 8)
    _ = unsafe UnsafeAtomic<Int>.initialize(at: words, to: 0)
    _ = unsafe UnsafeAtomic<UInt64>.initialize(at: words + 8, to: 0)
  }

  deinit {
    unsafe slots.deinitialize(count: Int(counters[1]))
    unsafe slots.deallocate()
    unsafe renderings.deinitialize(count: capacity)
    unsafe renderings.deallocate()
    unsafe costs.deallocate()
    unsafe counters.deallocate()
    unsafe words.deallocate()
  }
}

// MARK: - Accessors

extension EventRing {
  /// The spin lock's word: 0 free, 1 held.
  var lockWord: UnsafeAtomic<Int> {
    @inline(__always) get { unsafe UnsafeAtomic(at: words) }
  }

  /// The sequence number of the newest event, published after its slot is written.
  var latest: UnsafeAtomic<UInt64> {
    @inline(__always) get { unsafe UnsafeAtomic(at: words + 8) }
  }

  // The counters and slots below: lock held.

  /// The next sequence number.
  var nextSequence: UInt64 {
    @inline(__always) get { unsafe counters[0] }
    @inline(__always) set { unsafe counters[0] = newValue }
  }

  /// How many slots are initialised (from slot 0).
  var initializedSlots: UInt64 {
    @inline(__always) get { unsafe counters[1] }
    @inline(__always) set { unsafe counters[1] = newValue }
  }

  /// The sequence number that went (or goes) into slot 0.
  var slotZeroSequence: UInt64 {
    @inline(__always) get { unsafe counters[2] }
    @inline(__always) set { unsafe counters[2] = newValue }
  }

  /// The slot of the next event.
  var nextSlot: UInt64 {
    @inline(__always) get { unsafe counters[3] }
    @inline(__always) set { unsafe counters[3] = newValue }
  }

  /// The bytes counted for the events in the ring.
  var countedBytes: UInt64 {
    @inline(__always) get { unsafe counters[4] }
    @inline(__always) set { unsafe counters[4] = newValue }
  }

  /// The oldest sequence number not dropped for the byte budget.
  var oldestKept: UInt64 {
    @inline(__always) get { unsafe counters[5] }
    @inline(__always) set { unsafe counters[5] = newValue }
  }

  /// The event in slot `index`, which must be initialised (`index < initializedSlots`).
  subscript(slot index: Int) -> RecordedEvent {
    @inline(__always) _read { yield unsafe slots[index] }
    @inline(__always) _modify { yield unsafe &slots[index] }
  }

  /// Stores `event` in slot `index`, which must not be initialised (never used, or moved
  /// out of).
  @inline(__always)
  func initializeSlot(_ index: Int, to event: consuming RecordedEvent) {
    unsafe (slots + index).initialize(to: event)
  }

  /// Moves the event out of slot `index`, which must be initialised; the slot is not
  /// initialised afterwards.
  @inline(__always)
  func moveSlot(_ index: Int) -> RecordedEvent {
    unsafe (slots + index).move()
  }

  /// The cached rendering of slot `index`'s event, `nil` when not rendered.
  subscript(rendering index: Int) -> String? {
    @inline(__always) get { unsafe renderings[index] }
    @inline(__always) set { unsafe renderings[index] = newValue }
  }

  /// Takes the cached rendering of slot `index` out (to release it after the lock), leaving
  /// `nil`; a slot without one is only read.
  @inline(__always)
  func takeRendering(_ index: Int) -> String? {
    guard unsafe renderings[index] != nil else { return nil }
    let rendering = unsafe (renderings + index).move()
    unsafe (renderings + index).initialize(to: nil)
    return rendering
  }

  /// The bytes counted for slot `index`'s event and its rendering.
  subscript(cost index: Int) -> Int {
    @inline(__always) get { unsafe costs[index] }
    @inline(__always) set { unsafe costs[index] = newValue }
  }

  /// Counts every slot as 0 bytes.
  func resetCosts() {
    unsafe costs.update(repeating: 0, count: capacity)
  }
}

// MARK: - Storage identities, for the byte budget

/// A collection with a heap buffer: its identity (the buffer's address, 0 when it has none)
/// and the bytes the buffer takes. ``RetainedBytes`` counts a buffer once, however many
/// recorded states share it.
protocol SizedStorage {
  var storage: (identity: UInt, bytes: Int) { get }
}

extension Array: SizedStorage {
  var storage: (identity: UInt, bytes: Int) {
    guard capacity > 0 else { return (0, 0) }
    let address = unsafe withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    return (address, 32 + capacity * MemoryLayout<Element>.stride)
  }
}

extension ContiguousArray: SizedStorage {
  var storage: (identity: UInt, bytes: Int) {
    guard capacity > 0 else { return (0, 0) }
    let address = unsafe withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    return (address, 32 + capacity * MemoryLayout<Element>.stride)
  }
}

extension Dictionary: SizedStorage {
  var storage: (identity: UInt, bytes: Int) {
    guard !isEmpty else { return (0, 0) }
    // A native dictionary is one reference to its storage object.
    let identity = unsafe withUnsafeBytes(of: self) { unsafe $0.load(as: UInt.self) }
    let entry = MemoryLayout<Key>.stride + MemoryLayout<Value>.stride
    return (identity, 64 + capacity * entry * 4 / 3)
  }
}

extension Set: SizedStorage {
  var storage: (identity: UInt, bytes: Int) {
    guard !isEmpty else { return (0, 0) }
    let identity = unsafe withUnsafeBytes(of: self) { unsafe $0.load(as: UInt.self) }
    return (identity, 64 + capacity * MemoryLayout<Element>.stride * 4 / 3)
  }
}
