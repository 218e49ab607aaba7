import ReactorKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The inspector's bounded timeline: the newest `capacity` events, numbered from 1 without
/// gaps, holding at most about `byteBudget` bytes. Appending never waits for a reader's batch
/// and never grows the ring; a reader that falls behind by more than the capacity learns how
/// many events it missed.
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
  // Safety: `slots`, `rendered` and `counters` are only accessed with the spin lock held
  // (`lock()`/`unlock()`, acquiring and releasing `lockWord`); `latest` is atomic. Both atomic
  // words live in `words`, allocated once and only accessed atomically.
  let capacity: Int
  /// The most bytes the events (and their cached renderings) may keep alive, approximately.
  let byteBudget: Int
  private let slots: UnsafeMutablePointer<RecordedEvent>
  private let rendered: UnsafeMutablePointer<String?>
  /// The bytes each slot's event (and its cached rendering) is counted for.
  private let costs: UnsafeMutablePointer<Int>
  /// `[0]`: the next sequence number; `[1]`: how many slots are initialised; `[2]`: the
  /// sequence number that went (or goes) into slot 0; `[3]`: the slot of the next event;
  /// `[4]`: the bytes counted for the events in the ring; `[5]`: the oldest sequence number
  /// not dropped for the byte budget.
  private let counters: UnsafeMutablePointer<UInt64>
  /// The spin lock's word (0 free, 1 held), then ``latestSequence``.
  private let words: UnsafeMutableRawPointer
  private var lockWord: UnsafeAtomic<Int> { unsafe UnsafeAtomic(at: words) }
  private var latest: UnsafeAtomic<UInt64> { unsafe UnsafeAtomic(at: words + 8) }

  init(capacity: Int, byteBudget: Int = .max) {
    self.capacity = max(1, capacity)
    self.byteBudget = max(0, byteBudget)
    unsafe slots = .allocate(capacity: self.capacity)
    unsafe rendered = .allocate(capacity: self.capacity)
    unsafe rendered.initialize(repeating: nil, count: self.capacity)
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
    unsafe rendered.deinitialize(count: capacity)
    unsafe rendered.deallocate()
    unsafe costs.deallocate()
    unsafe counters.deallocate()
    unsafe words.deallocate()
  }

  // MARK: - The lock

  @inline(__always)
  private func lock() {
    if !lockWord.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged {
      lockContended()
    }
  }

  /// Waits for the lock: spins briefly (the holder copies one event), then yields the core.
  @inline(never)
  private func lockContended() {
    var spins = 0
    while true {
      if lockWord.load(ordering: .relaxed) == 0,
        lockWord.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
      {
        return
      }
      spins += 1
      if spins >= 100 {
        spins = 0
        sched_yield()
      }
    }
  }

  @inline(__always)
  private func unlock() {
    lockWord.store(0, ordering: .releasing)
  }

  // MARK: - Writing

  /// The sequence number of the newest event; 0 before the first.
  var latestSequence: UInt64 { latest.load(ordering: .acquiring) }

  /// The bytes counted for the events in the ring now.
  var retainedBytes: Int {
    lock()
    defer { unlock() }
    return unsafe Int(counters[4])
  }

  /// Appends an event stamped with the time now; returns its sequence number.
  ///
  /// - Parameter bytes: The bytes the event keeps alive, for the byte budget.
  @discardableResult
  func append(
    kind: InspectorEventKind, source: SourceInfo, value: consuming Any? = nil,
    before: consuming Any? = nil, after: consuming Any? = nil, note: consuming String? = nil,
    bytes: Int = 0
  ) -> UInt64 {
    let time = RecordedEvent.now()
    lock()
    let sequence = unsafe counters[0]
    unsafe counters[0] = sequence &+ 1
    // The next slot, without a division on the app's thread.
    let index = unsafe Int(counters[3])
    unsafe counters[3] = unsafe index + 1 == capacity ? 0 : counters[3] + 1
    let slot = unsafe slots + index
    // The displaced event's bytes leave the count, the new one's enter it.
    let total =
      unsafe counters[4] &- UInt64(bitPattern: Int64(costs[index]))
      &+ UInt64(bitPattern: Int64(bytes))
    unsafe counters[4] = total
    unsafe costs[index] = bytes
    if total > UInt64(byteBudget) {
      return appendOverBudgetAndUnlock(
        sequence: sequence, time: time, kind: kind, source: source, index: index,
        value: value, before: before, after: after, note: note)
    }
    if unsafe UInt64(index) < counters[1], unsafe slot.pointee.source === source {
      // The displaced event came from the same source (the common case): the slot keeps its
      // reference to the source, and the values are exchanged, the old ones released after
      // the lock.
      var value = value
      var before = before
      var after = after
      var note = note
      unsafe slot.pointee.sequence = sequence
      unsafe slot.pointee.time = time
      unsafe slot.pointee.kind = kind
      unsafe swap(&slot.pointee.value, &value)
      unsafe swap(&slot.pointee.before, &before)
      unsafe swap(&slot.pointee.after, &after)
      unsafe swap(&slot.pointee.note, &note)
      let stale = unsafe rendered[index] == nil ? nil : (rendered + index).move()
      if stale != nil { unsafe (rendered + index).initialize(to: nil) }
      latest.store(sequence, ordering: .releasing)
      unlock()
      // One by one: a tuple would be destroyed through the runtime's generic tuple witness.
      withExtendedLifetime(value) {}
      withExtendedLifetime(before) {}
      withExtendedLifetime(after) {}
      withExtendedLifetime(note) {}
      withExtendedLifetime(stale) {}
    } else if unsafe UInt64(index) < counters[1] {
      // The event displaced here (and its cached rendering) is released after the lock: its
      // values' deinitialisers are the app's code.
      let displaced = unsafe slot.move()
      unsafe slot.initialize(
        to: RecordedEvent(
          sequence: sequence, time: time, kind: kind, source: source, value: value,
          before: before, after: after, note: note))
      let stale = unsafe rendered[index] == nil ? nil : (rendered + index).move()
      if stale != nil { unsafe (rendered + index).initialize(to: nil) }
      latest.store(sequence, ordering: .releasing)
      unlock()
      withExtendedLifetime(displaced) {}
      withExtendedLifetime(stale) {}
    } else {
      unsafe counters[1] += 1
      unsafe slot.initialize(
        to: RecordedEvent(
          sequence: sequence, time: time, kind: kind, source: source, value: value,
          before: before, after: after, note: note))
      latest.store(sequence, ordering: .releasing)
      unlock()
    }
    return sequence
  }

  /// The rest of ``append(kind:source:value:before:after:note:bytes:)`` when the ring is over
  /// its byte budget (lock held, counters updated): stores the event, drops the oldest events
  /// until the total fits (never the new one), and releases what they held after the lock.
  @inline(never)
  private func appendOverBudgetAndUnlock(
    sequence: UInt64, time: Double, kind: InspectorEventKind, source: SourceInfo, index: Int,
    value: Any?, before: Any?, after: Any?, note: String?
  ) -> UInt64 {
    let slot = unsafe slots + index
    let displaced: RecordedEvent? = unsafe UInt64(index) < counters[1] ? slot.move() : nil
    if displaced == nil { unsafe counters[1] += 1 }
    unsafe slot.initialize(
      to: RecordedEvent(
        sequence: sequence, time: time, kind: kind, source: source, value: value,
        before: before, after: after, note: note))
    var released: [Any?] = [displaced]
    unsafe released.append(rendered[index] == nil ? nil : (rendered + index).move())
    if unsafe rendered[index] == nil { unsafe (rendered + index).initialize(to: nil) }
    // Events older than the capacity are gone already: start after them.
    if sequence >= UInt64(capacity), unsafe counters[5] < sequence + 1 - UInt64(capacity) {
      unsafe counters[5] = sequence + 1 - UInt64(capacity)
    }
    while unsafe counters[4] > UInt64(byteBudget), unsafe counters[5] < sequence {
      let place = unsafe slotLocked(counters[5])
      unsafe counters[5] += 1
      guard case .present(let victim) = place else { continue }
      unsafe counters[4] = unsafe counters[4] &- UInt64(costs[victim])
      unsafe costs[victim] = 0
      unsafe released.append(slots[victim].value)
      unsafe released.append(slots[victim].before)
      unsafe released.append(slots[victim].after)
      unsafe slots[victim].value = nil
      unsafe slots[victim].before = nil
      unsafe slots[victim].after = nil
      unsafe slots[victim].note = nil
      if unsafe rendered[victim] != nil {
        unsafe released.append((rendered + victim).move())
        unsafe (rendered + victim).initialize(to: nil)
      }
    }
    latest.store(sequence, ordering: .releasing)
    unlock()
    withExtendedLifetime(released) {}
    return sequence
  }

  /// Drops every event (sequence numbers continue).
  func removeAll() {
    var dropped: [RecordedEvent] = []
    dropped.reserveCapacity(capacity)
    var droppedRenderings: [String?] = []
    droppedRenderings.reserveCapacity(capacity)
    lock()
    let count = unsafe Int(counters[1])
    for index in 0..<count { unsafe dropped.append((slots + index).move()) }
    for index in 0..<capacity where unsafe rendered[index] != nil {
      unsafe droppedRenderings.append((rendered + index).move())
      unsafe (rendered + index).initialize(to: nil)
    }
    unsafe counters[1] = 0
    // Sequence numbers continue; slots fill again from slot 0.
    unsafe counters[2] = unsafe counters[0]
    unsafe counters[3] = 0
    unsafe counters[4] = 0
    unsafe counters[5] = unsafe counters[0]
    unsafe costs.update(repeating: 0, count: capacity)
    unlock()
    _ = dropped
    _ = droppedRenderings
  }

  /// Where event `sequence` is (lock held).
  private enum Place {
    /// In this slot.
    case present(Int)
    /// Not in the ring: dropped by ``removeAll()``, or not appended yet.
    case removed
    /// Not in the ring any more: its slot holds a newer event, or it was dropped for the
    /// byte budget.
    case overwritten
  }

  /// Where event `sequence` is (lock held).
  private func slotLocked(_ sequence: UInt64) -> Place {
    guard unsafe sequence >= counters[2], unsafe sequence < counters[0] else { return .removed }
    guard unsafe sequence >= counters[5] else { return .overwritten }
    let index = unsafe Int((sequence - counters[2]) % UInt64(capacity))
    guard unsafe UInt64(index) < counters[1] else { return .removed }
    return unsafe slots[index].sequence == sequence ? .present(index) : .overwritten
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
  ///
  /// The lock is taken for a few events at a time (``eventsPerLock``). Events dropped by
  /// ``removeAll()`` or overwritten before the read began count as missed; at an event
  /// overwritten during the read (the writer overtook this reader) the batch ends, and the
  /// next read, from the last event returned, reports what was missed.
  func events(after sequence: UInt64, limit: Int = .max) -> Batch {
    lock()
    let newest = unsafe counters[0] - 1
    guard sequence < newest else {
      unlock()
      return Batch(missed: 0, events: [], rendered: [])
    }
    let oldest = newest >= UInt64(capacity) ? newest - UInt64(capacity) + 1 : 1
    // Events before the first one after the last ``removeAll()`` are gone too, and so are
    // those dropped for the byte budget: they count as missed, so the reader's cursor moves
    // past them.
    let firstKept = unsafe max(counters[2], counters[5])
    unlock()
    let first = max(sequence + 1, oldest, firstKept)
    let missed = first - (sequence + 1)
    let last = min(newest, first + UInt64(max(0, min(limit, capacity))) - 1)
    var batch = Batch(missed: missed, events: [], rendered: [])
    guard first <= last else { return batch }
    batch.events.reserveCapacity(Int(last - first + 1))
    batch.rendered.reserveCapacity(Int(last - first + 1))
    // A few events per lock: the arrays have their capacity, so nothing allocates meanwhile.
    var current = first
    while current <= last {
      let end = min(last, current + Self.eventsPerLock - 1)
      lock()
      while current <= end {
        switch slotLocked(current) {
        case .present(let index):
          unsafe batch.events.append(slots[index])
          unsafe batch.rendered.append(rendered[index])
        case .removed:
          break
        case .overwritten:
          unlock()
          return batch
        }
        current += 1
      }
      unlock()
    }
    return batch
  }

  /// The most events a reader copies while holding the lock: an append waits at most for
  /// that many copies, and a reader takes the lock (whose cache line the writer then has to
  /// fetch back) once per that many events.
  static let eventsPerLock: UInt64 = 16

  /// The event numbered `sequence`, if it is still in the ring.
  func event(_ sequence: UInt64) -> RecordedEvent? {
    lock()
    defer { unlock() }
    guard case .present(let index) = slotLocked(sequence) else { return nil }
    return unsafe slots[index]
  }

  /// The state after the newest event of `source` before `sequence` (looking back at most
  /// `limit` events), for the diff of an event recorded without its state before.
  func stateBefore(_ sequence: UInt64, source: SourceInfo, limit: Int = 4_096) -> Any? {
    var current = sequence
    var looked = 0
    while current > 1, looked < limit {
      current -= 1
      looked += 1
      lock()
      guard case .present(let index) = slotLocked(current) else {
        unlock()
        return nil
      }
      if unsafe slots[index].source === source, let after = unsafe slots[index].after {
        unlock()
        return after
      }
      unlock()
    }
    return nil
  }

  /// Caches the rendering of event `sequence`, if it is still in the ring.
  func cacheRendering(_ text: String, for sequence: UInt64) {
    lock()
    guard case .present(let index) = slotLocked(sequence) else {
      unlock()
      return
    }
    let previous = unsafe rendered[index]
    unsafe rendered[index] = text
    // The rendering counts toward the budget; it is dropped with its event.
    let added = text.utf8.count - (previous?.utf8.count ?? 0)
    unsafe costs[index] += added
    unsafe counters[4] = unsafe counters[4] &+ UInt64(bitPattern: Int64(added))
    unlock()
    _ = previous
  }
}
