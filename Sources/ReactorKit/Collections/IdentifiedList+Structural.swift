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
  /// at most `limit`.
  @inlinable
  static func sharedRun(
    _ left: PersistentTreeNode<UInt64, Element>, _ right: PersistentTreeNode<UInt64, Element>,
    fromStart: Bool, limit: Int
  ) -> Int {
    // Each stack's last node is the next subtree from that end.
    var lefts = [left]
    var rights = [right]
    var shared = 0
    while shared < limit, let a = lefts.last, let b = rights.last {
      if a === b {
        lefts.removeLast()
        rights.removeLast()
        shared += a.count
        continue
      }
      if a.isLeaf && b.isLeaf { break }
      // Open the internal nodes (a shared subtree shows up at the level where both reach it).
      let openLeft = !a.isLeaf
      let openRight = !b.isLeaf
      if openLeft {
        lefts.removeLast()
        if fromStart {
          lefts.append(contentsOf: a.children.reversed())
        } else {
          lefts.append(contentsOf: a.children)
        }
      }
      if openRight {
        rights.removeLast()
        if fromStart {
          rights.append(contentsOf: b.children.reversed())
        } else {
          rights.append(contentsOf: b.children)
        }
      }
    }
    return Swift.min(shared, limit)
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
