import ReactorKit

/// The inspector's bounded timeline: the newest `capacity` events, numbered from 1 without
/// gaps. Appending never waits for a reader and never grows the ring; a reader that falls
/// behind by more than the capacity learns how many events it missed.
///
/// The slots live in memory allocated once (no array copy-on-write or exclusivity checks on
/// the app's thread), initialised as the first `capacity` events arrive.
///
/// - Complexity: Appending is O(1); reading `n` events is O(n).
final class EventRing: @unchecked Sendable {
  // Safety: `slots`, `rendered` and `counters` are guarded by `lock`; `latest` is atomic.
  let capacity: Int
  private let lock = Lock()
  private let slots: UnsafeMutablePointer<RecordedEvent>
  private let rendered: UnsafeMutablePointer<String?>
  /// `[0]`: the next sequence number; `[1]`: how many slots are initialised; `[2]`: the
  /// sequence number that went (or goes) into slot 0; `[3]`: the slot of the next event.
  private let counters: UnsafeMutablePointer<UInt64>
  private let latestBox = AtomicBox<UInt64>(0)
  private var latest: UnsafeAtomic<UInt64> { latestBox.atomic }

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    slots = .allocate(capacity: self.capacity)
    rendered = .allocate(capacity: self.capacity)
    rendered.initialize(repeating: nil, count: self.capacity)
    counters = .allocate(capacity: 4)
    counters.initialize(repeating: 0, count: 4)
    counters[0] = 1
    counters[2] = 1
  }

  deinit {
    slots.deinitialize(count: Int(counters[1]))
    slots.deallocate()
    rendered.deinitialize(count: capacity)
    rendered.deallocate()
    counters.deallocate()
  }

  /// The sequence number of the newest event; 0 before the first.
  var latestSequence: UInt64 { latest.load(ordering: .acquiring) }

  /// Appends the event `make` builds for the next sequence number; returns that number.
  @discardableResult
  func append(_ make: (UInt64) -> RecordedEvent) -> UInt64 {
    lock.lock()
    let sequence = counters[0]
    counters[0] = sequence &+ 1
    // The next slot, without a division on the app's thread.
    let index = Int(counters[3])
    counters[3] = index + 1 == capacity ? 0 : counters[3] + 1
    let slot = slots + index
    // The event displaced here is released after the lock: its values' deinitialisers are
    // the app's code.
    var displaced: RecordedEvent?
    if UInt64(index) < counters[1] {
      displaced = slot.move()
    } else {
      counters[1] += 1
    }
    slot.initialize(to: make(sequence))
    if rendered[index] != nil { rendered[index] = nil }
    latest.store(sequence, ordering: .releasing)
    lock.unlock()
    if displaced != nil { displaced = nil }
    return sequence
  }

  /// Drops every event (sequence numbers continue).
  func removeAll() {
    lock.lock()
    var dropped: [RecordedEvent] = []
    let count = Int(counters[1])
    dropped.reserveCapacity(count)
    for index in 0..<count { dropped.append((slots + index).move()) }
    counters[1] = 0
    // Sequence numbers continue; slots fill again from slot 0.
    counters[2] = counters[0]
    counters[3] = 0
    rendered.update(repeating: nil, count: capacity)
    lock.unlock()
    _ = dropped
  }

  /// Whether `sequence`'s slot holds that event (lock held).
  private func slotLocked(_ sequence: UInt64) -> Int? {
    guard sequence >= counters[2] else { return nil }
    let index = Int((sequence - counters[2]) % UInt64(capacity))
    guard UInt64(index) < counters[1], slots[index].sequence == sequence else { return nil }
    return index
  }

  /// What a read found.
  struct Batch {
    /// Events older than the first returned that were already dropped.
    var missed: UInt64
    var events: [RecordedEvent]
    /// Renderings cached for `events`, in the same order (`nil` when not rendered yet).
    var rendered: [String?]
  }

  /// The events after `sequence`, oldest first, at most `limit`.
  func events(after sequence: UInt64, limit: Int = .max) -> Batch {
    lock.lock()
    defer { lock.unlock() }
    let newest = counters[0] - 1
    guard sequence < newest else { return Batch(missed: 0, events: [], rendered: []) }
    let oldest = newest >= UInt64(capacity) ? newest - UInt64(capacity) + 1 : 1
    let first = max(sequence + 1, oldest)
    let missed = first - (sequence + 1)
    let last = min(newest, first + UInt64(max(0, min(limit, capacity))) - 1)
    var batch = Batch(missed: missed, events: [], rendered: [])
    guard first <= last else { return batch }
    batch.events.reserveCapacity(Int(last - first + 1))
    for current in first...last {
      if let index = slotLocked(current) {
        batch.events.append(slots[index])
        batch.rendered.append(rendered[index])
      }
    }
    return batch
  }

  /// The event numbered `sequence`, if it is still in the ring.
  func event(_ sequence: UInt64) -> RecordedEvent? {
    lock.withLock { slotLocked(sequence).map { slots[$0] } }
  }

  /// The state after the newest event of `source` before `sequence` (looking back at most
  /// `limit` events), for the diff of an event recorded without its state before.
  func stateBefore(_ sequence: UInt64, source: SourceInfo, limit: Int = 4_096) -> Any? {
    lock.withLock {
      var current = sequence
      var looked = 0
      while current > 1, looked < limit {
        current -= 1
        looked += 1
        guard let index = slotLocked(current) else { return nil }
        if slots[index].source === source, let after = slots[index].after { return after }
      }
      return nil
    }
  }

  /// Caches the rendering of event `sequence`, if it is still in the ring.
  func cacheRendering(_ text: String, for sequence: UInt64) {
    lock.withLock {
      if let index = slotLocked(sequence) { rendered[index] = text }
    }
  }
}
