/// A FIFO queue backed by an array and a head index: amortised O(1) `append` and
/// `popFirst`, storage reused once the queue drains. Shared with the other modules of the
/// package.
@usableFromInline
package struct Queue<Element> {
  @usableFromInline var storage: ContiguousArray<Element?> = []
  @usableFromInline var head = 0

  @inlinable
  package init() {}

  /// Whether the queue holds no elements.
  @inlinable
  package var isEmpty: Bool { head == storage.count }

  /// The number of queued elements.
  @inlinable
  package var count: Int { storage.count - head }

  /// Adds `element` at the back.
  @inlinable
  package mutating func append(_ element: Element) {
    storage.append(element)
  }

  /// Removes and returns the front element, or `nil` when empty.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard head < storage.count else { return nil }
    let element = storage[head].take()
    head += 1
    if head == storage.count {
      storage.removeAll(keepingCapacity: storage.count <= 64)
      head = 0
    } else if head >= 64 && head * 2 >= storage.count {
      storage.removeFirst(head)
      head = 0
    }
    return element
  }

  /// Removes every element.
  @inlinable
  package mutating func removeAll() {
    storage.removeAll()
    head = 0
  }
}
