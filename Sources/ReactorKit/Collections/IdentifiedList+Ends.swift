extension IdentifiedList {
  /// Removes and returns the first element.
  ///
  /// - Precondition: The list is not empty.
  /// - Complexity: O(log N).
  @inlinable
  @discardableResult
  public mutating func removeFirst() -> Element {
    precondition(!isEmpty, "IdentifiedList: removeFirst() on an empty list")
    return remove(at: 0)
  }

  /// Removes and returns the last element.
  ///
  /// - Precondition: The list is not empty.
  /// - Complexity: O(log N).
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    precondition(!isEmpty, "IdentifiedList: removeLast() on an empty list")
    return remove(at: count - 1)
  }

  /// Removes and returns the last element, or returns `nil` when the list is empty.
  ///
  /// - Complexity: O(log N).
  @inlinable
  public mutating func popLast() -> Element? {
    isEmpty ? nil : remove(at: count - 1)
  }
}
