/// A FIFO queue backed by an array used as a window `head..<tail`: amortised O(1) `append`
/// and `popFirst`. Shared with the other modules of the package.
///
/// Slots are reused once the queue drains, without touching the array: a queue that goes
/// from empty to one element and back (the common case on hot paths) costs no array
/// bookkeeping beyond one store and one load. A drained queue that grew past 64 slots
/// releases its storage.
@usableFromInline
package struct Queue<Element> {
  @usableFromInline var storage: ContiguousArray<Element?> = []
  @usableFromInline var head = 0
  @usableFromInline var tail = 0

  @inlinable
  package init() {}

  /// Whether the queue holds no elements.
  @inlinable
  package var isEmpty: Bool { head == tail }

  /// The number of queued elements.
  @inlinable
  package var count: Int { tail - head }

  /// Adds `element` at the back.
  @inlinable
  package mutating func append(_ element: Element) {
    if tail < storage.count {
      storage[tail] = element
    } else {
      if head >= 64 && head * 2 >= tail {
        // Most of the array is consumed slots: shift the live part to the front.
        storage.removeFirst(head)
        tail -= head
        head = 0
      }
      storage.append(element)
    }
    tail += 1
  }

  /// Removes and returns the front element, or `nil` when empty.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < tail else { return nil }
    let element = storage[head].take()
    head += 1
    if head == tail {
      head = 0
      tail = 0
      if storage.count > 64 { storage = [] }
    }
    return element
  }

  /// Removes every element.
  @inlinable
  package mutating func removeAll() {
    storage.removeAll()
    head = 0
    tail = 0
  }
}
