/// The package's FIFO queue: an array used as a window `head..<tail`, with amortised O(1)
/// ``append(_:)`` and ``popFirst()``. Use it for every queue of pending work.
///
/// - Each element is released as it is dequeued (its slot is cleared), not when the queue
///   next drains: a queue never keeps a delivered event, action or closure alive.
/// - Memory stays proportional to what is waiting, also in a queue that never drains: once
///   the consumed slots outnumber the waiting elements two to one (and are at least
///   ``compactionThreshold``), the waiting elements move to a fresh array twice their
///   number, and the old storage is freed.
/// - A queue that goes from empty to one element and back (the common case on hot paths)
///   reuses its first slot: one store and one load, no array bookkeeping.
///
/// - Complexity: ``append(_:)`` and ``popFirst()`` amortised O(1); storage O(`count` +
///   ``compactionThreshold``).
@frozen
@usableFromInline
package struct Queue<Element> {
  @usableFromInline var storage: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline var tail = 0

  /// Consumed slots below this number are never compacted away: small queues skip the work.
  @inlinable package static var compactionThreshold: Int { 32 }

  @inlinable
  package init() {}

  /// Whether the queue holds no elements.
  @inlinable
  package var isEmpty: Bool { head == tail }

  /// The number of queued elements.
  @inlinable
  package var count: Int { tail - head }

  /// The front element, without removing it.
  @inlinable
  package var first: Element? { head < tail ? storage[head] : nil }

  /// The slots the queue keeps allocated (for tests of its memory bound).
  package var capacity: Int { storage.capacity }

  /// Adds `element` at the back.
  @inlinable
  package mutating func append(_ element: Element) {
    if tail < storage.count {
      storage[tail] = element
    } else {
      if head >= Self.compactionThreshold && head >= count {
        // At least half of the array is consumed slots: move the rest to the front.
        compact()
      }
      storage.append(element)
    }
    tail &+= 1
  }

  /// Removes and returns the front element (releasing the queue's reference to it), or `nil`
  /// when empty.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < tail else { return nil }
    let element = storage[head].take()
    head &+= 1
    if head == tail {
      head = 0
      tail = 0
      if storage.count > Self.compactionThreshold * 2 { storage = [] }
    } else if head >= Self.compactionThreshold && head > 2 &* count {
      compact()
    }
    return element
  }

  /// Removes every element; keeps the storage only when asked to.
  @inlinable
  package mutating func removeAll(keepingCapacity: Bool = false) {
    storage.removeAll(keepingCapacity: keepingCapacity)
    head = 0
    tail = 0
  }

  /// Moves the waiting elements to a fresh array with room for as many again, freeing the
  /// consumed slots and any excess capacity.
  @usableFromInline
  mutating func compact() {
    var fresh = ContiguousArray<Element?>()
    fresh.reserveCapacity(Swift.max(2 * count, Self.compactionThreshold))
    fresh.append(contentsOf: storage[head..<tail])
    storage = fresh
    tail = count
    head = 0
  }
}
