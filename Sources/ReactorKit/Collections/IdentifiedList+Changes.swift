extension IdentifiedList {
  /// Whether `self` and `other` are the same version: one was copied from the other and
  /// neither changed since. O(1); `false` says nothing about equality.
  @inlinable
  package func isIdentical(to other: IdentifiedList) -> Bool {
    order.root === other.order.root
  }

  /// The positions where `self` and an older version `old` may differ: everything outside
  /// `old`'s range `old` and `self`'s range `new` is shared by both (see ``sharedEnds(with:)``).
  ///
  /// - Complexity: O(changes × log N).
  @inlinable
  package func changedRanges(from old: IdentifiedList) -> (old: Range<Int>, new: Range<Int>) {
    let ends = sharedEnds(with: old)
    return (ends.prefix..<(old.count - ends.suffix), ends.prefix..<(count - ends.suffix))
  }

  /// Calls `body` with each element at the positions `range`, in order, walking leaf by leaf.
  ///
  /// - Complexity: O(log N + `range.count`).
  @inlinable
  package func forEach(in range: Range<Int>, _ body: (Element) throws -> Void) rethrows {
    var position = range.lowerBound
    while position < range.upperBound {
      let (leaf, offset) = order.leaf(containing: position)
      let run = Swift.min(leaf.values.count - offset, range.upperBound - position)
      for step in 0..<run { try body(leaf.values[offset + step]) }
      position += run
    }
  }
}

extension IdentifiedList where Element: Equatable {
  /// Calls `body` once for each `id` whose element differs between the older version `old`
  /// and `self`: with the new element when it was inserted or changed (by `==`), with `nil`
  /// when it was removed. An element that only moved is not reported. The order of the calls
  /// is unspecified.
  ///
  /// Only the parts the two versions do not share are compared (``changedRanges(from:)``),
  /// so a version made from `old` by a few changes costs O(changes × log N) plus the
  /// elements of the leaves those changes touched.
  @inlinable
  package func forEachChange(from old: IdentifiedList, _ body: (ID, Element?) throws -> Void)
    rethrows
  {
    if isIdentical(to: old) { return }
    let ranges = changedRanges(from: old)
    var before: [ID: Element] = [:]
    before.reserveCapacity(ranges.old.count)
    old.forEach(in: ranges.old) { before[$0.id] = $0 }
    try forEach(in: ranges.new) { element in
      if let previous = before.removeValue(forKey: element.id), previous == element { return }
      try body(element.id, element)
    }
    for id in before.keys { try body(id, nil) }
  }
}
