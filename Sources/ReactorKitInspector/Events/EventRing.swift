import ReactorKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The ring's logic: the spin lock, appending, the byte budget and reading, over the slots and
/// counters that EventRingStorage.swift lays out (see ``EventRing`` for the design).
extension EventRing {
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
    return Int(countedBytes)
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
    let sequence = nextSequence
    nextSequence = sequence &+ 1
    // The next slot, without a division on the app's thread.
    let index = Int(nextSlot)
    nextSlot = index + 1 == capacity ? 0 : nextSlot + 1
    // The displaced event's bytes leave the count, the new one's enter it.
    let total =
      countedBytes &- UInt64(bitPattern: Int64(self[cost: index]))
      &+ UInt64(bitPattern: Int64(bytes))
    countedBytes = total
    self[cost: index] = bytes
    if total > UInt64(byteBudget) {
      return appendOverBudgetAndUnlock(
        sequence: sequence, time: time, kind: kind, source: source, index: index,
        value: value, before: before, after: after, note: note)
    }
    if UInt64(index) < initializedSlots, self[slot: index].source === source {
      // The displaced event came from the same source (the common case): the slot keeps its
      // reference to the source, and the values are exchanged, the old ones released after
      // the lock.
      var value = value
      var before = before
      var after = after
      var note = note
      self[slot: index].sequence = sequence
      self[slot: index].time = time
      self[slot: index].kind = kind
      swap(&self[slot: index].value, &value)
      swap(&self[slot: index].before, &before)
      swap(&self[slot: index].after, &after)
      swap(&self[slot: index].note, &note)
      let stale = takeRendering(index)
      latest.store(sequence, ordering: .releasing)
      unlock()
      // One by one: a tuple would be destroyed through the runtime's generic tuple witness.
      withExtendedLifetime(value) {}
      withExtendedLifetime(before) {}
      withExtendedLifetime(after) {}
      withExtendedLifetime(note) {}
      withExtendedLifetime(stale) {}
    } else if UInt64(index) < initializedSlots {
      // The event displaced here (and its cached rendering) is released after the lock: its
      // values' deinitialisers are the app's code.
      let displaced = moveSlot(index)
      initializeSlot(
        index,
        to: RecordedEvent(
          sequence: sequence, time: time, kind: kind, source: source, value: value,
          before: before, after: after, note: note))
      let stale = takeRendering(index)
      latest.store(sequence, ordering: .releasing)
      unlock()
      withExtendedLifetime(displaced) {}
      withExtendedLifetime(stale) {}
    } else {
      initializedSlots += 1
      initializeSlot(
        index,
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
    let displaced: RecordedEvent? = UInt64(index) < initializedSlots ? moveSlot(index) : nil
    if displaced == nil { initializedSlots += 1 }
    initializeSlot(
      index,
      to: RecordedEvent(
        sequence: sequence, time: time, kind: kind, source: source, value: value,
        before: before, after: after, note: note))
    var released: [Any?] = [displaced]
    released.append(takeRendering(index))
    // Events older than the capacity are gone already: start after them.
    if sequence >= UInt64(capacity), oldestKept < sequence + 1 - UInt64(capacity) {
      oldestKept = sequence + 1 - UInt64(capacity)
    }
    while countedBytes > UInt64(byteBudget), oldestKept < sequence {
      let place = slotLocked(oldestKept)
      oldestKept += 1
      guard case .present(let victim) = place else { continue }
      countedBytes = countedBytes &- UInt64(self[cost: victim])
      self[cost: victim] = 0
      released.append(self[slot: victim].value)
      released.append(self[slot: victim].before)
      released.append(self[slot: victim].after)
      self[slot: victim].value = nil
      self[slot: victim].before = nil
      self[slot: victim].after = nil
      self[slot: victim].note = nil
      if self[rendering: victim] != nil { released.append(takeRendering(victim)) }
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
    let count = Int(initializedSlots)
    for index in 0..<count { dropped.append(moveSlot(index)) }
    for index in 0..<capacity where self[rendering: index] != nil {
      droppedRenderings.append(takeRendering(index))
    }
    initializedSlots = 0
    // Sequence numbers continue; slots fill again from slot 0.
    slotZeroSequence = nextSequence
    nextSlot = 0
    countedBytes = 0
    oldestKept = nextSequence
    resetCosts()
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
    guard sequence >= slotZeroSequence, sequence < nextSequence else { return .removed }
    guard sequence >= oldestKept else { return .overwritten }
    let index = Int((sequence - slotZeroSequence) % UInt64(capacity))
    guard UInt64(index) < initializedSlots else { return .removed }
    return self[slot: index].sequence == sequence ? .present(index) : .overwritten
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
    let newest = nextSequence - 1
    guard sequence < newest else {
      unlock()
      return Batch(missed: 0, events: [], rendered: [])
    }
    let oldest = newest >= UInt64(capacity) ? newest - UInt64(capacity) + 1 : 1
    // Events before the first one after the last ``removeAll()`` are gone too, and so are
    // those dropped for the byte budget: they count as missed, so the reader's cursor moves
    // past them.
    let firstKept = max(slotZeroSequence, oldestKept)
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
          batch.events.append(self[slot: index])
          batch.rendered.append(self[rendering: index])
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
    return self[slot: index]
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
      if self[slot: index].source === source, let after = self[slot: index].after {
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
    let previous = self[rendering: index]
    self[rendering: index] = text
    // The rendering counts toward the budget; it is dropped with its event.
    let added = text.utf8.count - (previous?.utf8.count ?? 0)
    self[cost: index] += added
    countedBytes = countedBytes &+ UInt64(bitPattern: Int64(added))
    unlock()
    _ = previous
  }
}
