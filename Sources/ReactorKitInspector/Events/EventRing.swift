import ReactorKit
import Synchronization

/// The inspector's bounded timeline: the newest `capacity` events, numbered from 1 without
/// gaps. Appending never waits for a reader and never grows the ring; a reader that falls
/// behind by more than the capacity learns how many events it missed.
///
/// - Complexity: Appending is O(1); reading `n` events is O(n).
final class EventRing: @unchecked Sendable {
  // Safety: `slots`, `rendered` and `nextSequence` are guarded by `lock`; `latest` is atomic.
  let capacity: Int
  private let lock = Lock()
  private var slots: [RecordedEvent?]
  private var rendered: [String?]
  private var nextSequence: UInt64 = 1
  private let latest = Atomic<UInt64>(0)

  init(capacity: Int) {
    self.capacity = max(1, capacity)
    slots = Array(repeating: nil, count: self.capacity)
    rendered = Array(repeating: nil, count: self.capacity)
  }

  /// The sequence number of the newest event; 0 before the first.
  var latestSequence: UInt64 { latest.load(ordering: .acquiring) }

  /// Appends the event `make` builds for the next sequence number; returns that number.
  @discardableResult
  func append(_ make: (UInt64) -> RecordedEvent) -> UInt64 {
    lock.lock()
    let sequence = nextSequence
    nextSequence += 1
    let index = Int(sequence % UInt64(capacity))
    // The event displaced here is released after the lock: its values' deinitialisers are
    // the app's code.
    let displaced = slots[index]
    slots[index] = make(sequence)
    rendered[index] = nil
    latest.store(sequence, ordering: .releasing)
    lock.unlock()
    _ = displaced
    return sequence
  }

  /// Drops every event (sequence numbers continue).
  func removeAll() {
    lock.lock()
    let dropped = slots
    slots = Array(repeating: nil, count: capacity)
    rendered = Array(repeating: nil, count: capacity)
    lock.unlock()
    _ = dropped
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
    let newest = nextSequence - 1
    guard sequence < newest else { return Batch(missed: 0, events: [], rendered: []) }
    let oldest = newest >= UInt64(capacity) ? newest - UInt64(capacity) + 1 : 1
    let first = max(sequence + 1, oldest)
    let missed = first - (sequence + 1)
    let last = min(newest, first + UInt64(max(0, limit)) - 1)
    var batch = Batch(missed: missed, events: [], rendered: [])
    guard first <= last else { return batch }
    batch.events.reserveCapacity(Int(last - first + 1))
    for current in first...last {
      let index = Int(current % UInt64(capacity))
      if let event = slots[index] {
        batch.events.append(event)
        batch.rendered.append(rendered[index])
      }
    }
    return batch
  }

  /// The event numbered `sequence`, if it is still in the ring.
  func event(_ sequence: UInt64) -> RecordedEvent? {
    lock.withLock {
      let index = Int(sequence % UInt64(capacity))
      guard let event = slots[index], event.sequence == sequence else { return nil }
      return event
    }
  }

  /// Caches the rendering of event `sequence`, if it is still in the ring.
  func cacheRendering(_ text: String, for sequence: UInt64) {
    lock.withLock {
      let index = Int(sequence % UInt64(capacity))
      if slots[index]?.sequence == sequence { rendered[index] = text }
    }
  }
}
