extension IdentifiedList {
  /// Where two versions of a list differ: they agree on their first `prefix` elements and on
  /// their last `suffix` elements, and differ (at most) in between.
  ///
  /// Found by walking both versions' trees from each end and skipping the subtrees they share
  /// by identity, so two versions of which one was made from the other by a few changes are
  /// compared in O(changes × log N), whatever their size. Elements that are equal but not
  /// shared are left in the middle range.
  @usableFromInline
  package struct SharedEnds: Equatable {
    /// Elements at the start that both versions share.
    @usableFromInline package var prefix: Int
    /// Elements at the end that both versions share (not overlapping `prefix`).
    @usableFromInline package var suffix: Int
    @inlinable
    package init(prefix: Int, suffix: Int) {
      self.prefix = prefix
      self.suffix = suffix
    }
  }

  /// The shared ends of `self` and `other` (see ``SharedEnds``).
  @inlinable
  package func sharedEnds(with other: IdentifiedList) -> SharedEnds {
    let limit = Swift.min(count, other.count)
    let prefix = Self.sharedRun(order.root, other.order.root, fromStart: true, limit: limit)
    let suffix = Self.sharedRun(
      order.root, other.order.root, fromStart: false, limit: limit - prefix)
    return SharedEnds(prefix: prefix, suffix: suffix)
  }

  /// The number of elements, from the start or the end, that two trees share by node identity,
  /// at most `limit`: a lower bound, found by walking both trees down from that end, level by
  /// level, past the subtrees they share, without allocating.
  @inlinable
  static func sharedRun(
    _ left: PersistentTreeNode<UInt64, Element>, _ right: PersistentTreeNode<UInt64, Element>,
    fromStart: Bool, limit: Int
  ) -> Int {
    var left = left
    var right = right
    // Bring both to the same height (a root split makes one tree taller): the taller one's
    // edge child holds its first (or last) elements.
    var leftHeight = height(of: left)
    var rightHeight = height(of: right)
    while leftHeight > rightHeight {
      left = fromStart ? left.children[0] : left.children[left.children.count - 1]
      leftHeight -= 1
    }
    while rightHeight > leftHeight {
      right = fromStart ? right.children[0] : right.children[right.children.count - 1]
      rightHeight -= 1
    }
    var shared = 0
    while true {
      if left === right { return Swift.min(shared + left.count, limit) }
      if left.isLeaf || shared >= limit { return Swift.min(shared, limit) }
      let lefts = left.children
      let rights = right.children
      let pairs = Swift.min(lefts.count, rights.count)
      var step = 0
      while step < pairs {
        let a = fromStart ? lefts[step] : lefts[lefts.count - 1 - step]
        let b = fromStart ? rights[step] : rights[rights.count - 1 - step]
        guard a === b else { break }
        shared += a.count
        step += 1
      }
      if step == pairs || shared >= limit { return Swift.min(shared, limit) }
      left = fromStart ? lefts[step] : lefts[lefts.count - 1 - step]
      right = fromStart ? rights[step] : rights[rights.count - 1 - step]
    }
  }

  /// The number of levels below `node`.
  @inlinable
  static func height(of node: PersistentTreeNode<UInt64, Element>) -> Int {
    var node = node
    var height = 0
    while !node.isLeaf {
      node = node.children[0]
      height += 1
    }
    return height
  }
}

extension IdentifiedList: Equatable where Element: Equatable {
  /// Whether both lists have equal elements in the same order. Parts that two versions share
  /// are skipped without comparing their elements.
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    if lhs.order.root === rhs.order.root { return true }
    guard lhs.count == rhs.count else { return false }
    let ends = lhs.sharedEnds(with: rhs)
    let end = lhs.count - ends.suffix
    var position = ends.prefix
    // Leaf by leaf: one descent per leaf, not per element.
    while position < end {
      let (left, leftOffset) = lhs.order.leaf(containing: position)
      let (right, rightOffset) = rhs.order.leaf(containing: position)
      let run = Swift.min(
        left.values.count - leftOffset, right.values.count - rightOffset, end - position)
      for step in 0..<run where left.values[leftOffset + step] != right.values[rightOffset + step] {
        return false
      }
      position += run
    }
    return true
  }
}

extension IdentifiedList: Hashable where Element: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for element in self { hasher.combine(element) }
  }
}

extension IdentifiedList: Encodable where Element: Encodable {
  /// Encodes the elements as an array, in order.
  @inlinable
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self { try container.encode(element) }
  }
}

extension IdentifiedList: Decodable where Element: Decodable {
  /// Decodes an array of elements (what an `Array` of them encodes as).
  ///
  /// - Throws: `DecodingError.dataCorrupted` when two elements have the same `id`.
  @inlinable
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    var elements: [Element] = []
    if let count = container.count { elements.reserveCapacity(Swift.min(count, 1 << 16)) }
    while !container.isAtEnd {
      elements.append(try container.decode(Element.self))
    }
    guard let list = Self(checking: elements) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: decoder.codingPath,
          debugDescription: "IdentifiedList: two elements have the same id"))
    }
    self = list
  }
}
