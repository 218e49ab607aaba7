/// A persistent, counted B+-tree of key-value entries ordered by key: the storage of
/// ``IdentifiedList`` (twice: its elements by order key, and its identifiers by hash).
///
/// Versions share structure. A node is changed in place only while it is uniquely
/// referenced; otherwise the change copies the node first (copy-on-write), so a change to one
/// entry, an insert or a remove copies the path from the root to one leaf: O(log N) nodes of
/// at most ``PersistentTreeNode/capacity`` entries each. Two versions that share a subtree
/// share it by identity, which is what ``IdentifiedList``'s equality and differences skip.
///
/// Each node knows how many entries are under it, so an entry is found by position as well
/// as by key in O(log N).
///
/// Invariants (checked by `checkInvariants()` in tests): every leaf is at the same depth; an
/// internal node has at least one child and at most `capacity`; a leaf has at most `capacity`
/// entries and only the root may be empty; an internal node's `keys[i]` is the first key of
/// `children[i]`; keys are strictly increasing in order; `count` is the number of entries
/// below.
@usableFromInline
struct PersistentTree<Key: Comparable, Value> {
  @usableFromInline typealias Node = PersistentTreeNode<Key, Value>

  /// The root: a leaf, possibly empty, or an internal node.
  @usableFromInline var root: Node

  @inlinable
  init() {
    root = Node(leafKeys: [], values: [])
  }

  /// A tree of `entries`, which must be ordered by strictly increasing key. O(N).
  @inlinable
  init(sorted entries: some Sequence<(Key, Value)>) {
    var level: [Node] = []
    var keys = ContiguousArray<Key>()
    var values = ContiguousArray<Value>()
    let fill = Node.capacity * 3 / 4
    keys.reserveCapacity(fill)
    values.reserveCapacity(fill)
    for (key, value) in entries {
      keys.append(key)
      values.append(value)
      if keys.count == fill {
        level.append(Node(leafKeys: keys, values: values))
        keys.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
      }
    }
    if !keys.isEmpty || level.isEmpty {
      level.append(Node(leafKeys: keys, values: values))
    }
    while level.count > 1 {
      var parents: [Node] = []
      parents.reserveCapacity(level.count / fill + 1)
      var start = 0
      while start < level.count {
        let end = Swift.min(start + fill, level.count)
        parents.append(Node(children: ContiguousArray(level[start..<end])))
        start = end
      }
      level = parents
    }
    root = level[0]
  }

  /// The number of entries.
  @inlinable var count: Int { root.count }

  /// The entry at `position` (0 ..< count). O(log N).
  @inlinable
  func entry(at position: Int) -> (key: Key, value: Value) {
    var node = root
    var offset = position
    while !node.isLeaf {
      let index = node.childIndex(containing: &offset)
      node = node.children[index]
    }
    return (node.keys[offset], node.values[offset])
  }

  /// The position of the entry with `key`, or `nil`. O(log N).
  @inlinable
  func position(of key: Key) -> Int? {
    var node = root
    var base = 0
    while !node.isLeaf {
      let index = node.childIndex(forKey: key)
      for child in node.children[..<index] { base += child.count }
      node = node.children[index]
    }
    let slot = node.lowerBound(key)
    guard slot < node.keys.count, node.keys[slot] == key else { return nil }
    return base + slot
  }

  /// The number of entries whose key is less than `key`. O(log N).
  @inlinable
  func lowerBound(_ key: Key) -> Int {
    var node = root
    var base = 0
    while !node.isLeaf {
      let index = node.childIndex(forKey: key)
      for child in node.children[..<index] { base += child.count }
      node = node.children[index]
    }
    return base + node.lowerBound(key)
  }

  /// The value of the entry with `key`, or `nil`. O(log N).
  @inlinable
  func value(forKey key: Key) -> Value? {
    var node = root
    while !node.isLeaf {
      node = node.children[node.childIndex(forKey: key)]
    }
    let slot = node.lowerBound(key)
    guard slot < node.keys.count, node.keys[slot] == key else { return nil }
    return node.values[slot]
  }

  /// Changes the value at `position` in place, copying the shared nodes on its path.
  @inlinable
  mutating func modifyValue<Result>(
    at position: Int, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    try Node.modifyValue(in: &root, at: position, body)
  }

  /// Changes the value of the entry with `key`, if there is one, copying the shared nodes on
  /// its path; returns `nil` without calling `body` otherwise.
  @inlinable
  mutating func modifyValue<Result>(
    forKey key: Key, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    guard let position = position(of: key) else { return nil }
    return try Node.modifyValue(in: &root, at: position, body)
  }

  /// Inserts an entry whose key is not in the tree yet, at the position its key orders it.
  @inlinable
  mutating func insert(key: Key, value: Value) {
    if let right = Node.insert(into: &root, key: key, value: value) {
      root = Node(children: [root, right])
    }
  }

  /// Removes and returns the entry at `position`.
  @inlinable
  @discardableResult
  mutating func remove(at position: Int) -> (key: Key, value: Value) {
    let removed = Node.remove(from: &root, at: position)
    while !root.isLeaf && root.children.count == 1 {
      root = root.children[0]
    }
    if root.count == 0 && !root.isLeaf {
      root = Node(leafKeys: [], values: [])
    }
    return removed
  }

  /// Calls `body` with each leaf's entries, in order, until it returns `false`.
  @inlinable
  func forEachLeaf(_ body: (Node) -> Bool) {
    _ = root.forEachLeaf(body)
  }
}

/// A node of a ``PersistentTree``: a leaf with entries, or an internal node with children.
@usableFromInline
final class PersistentTreeNode<Key: Comparable, Value> {
  /// The most entries in a leaf and children in an internal node. 32 measured best for
  /// element updates with holders at 100 and 100,000 elements (fewer levels against
  /// cheaper copies of one node).
  @usableFromInline static var capacity: Int { 32 }
  /// A child smaller than this is merged with a neighbour when both fit in one node.
  @usableFromInline static var mergeThreshold: Int { 8 }

  /// A leaf: the entries' keys. An internal node: the first key of each child.
  @usableFromInline var keys: ContiguousArray<Key>
  /// A leaf's values, one per key; empty in an internal node.
  @usableFromInline var values: ContiguousArray<Value>
  /// An internal node's children; empty in a leaf.
  @usableFromInline var children: ContiguousArray<PersistentTreeNode>
  /// The number of entries in this subtree.
  @usableFromInline var count: Int
  /// Whether this node is a leaf (fixed when it is made).
  @usableFromInline let isLeaf: Bool

  @inlinable
  init(leafKeys: ContiguousArray<Key>, values: ContiguousArray<Value>) {
    keys = leafKeys
    self.values = values
    children = []
    count = leafKeys.count
    isLeaf = true
  }

  @inlinable
  init(children: ContiguousArray<PersistentTreeNode>) {
    var keys = ContiguousArray<Key>()
    keys.reserveCapacity(children.count)
    var count = 0
    for child in children {
      keys.append(child.keys[0])
      count += child.count
    }
    self.keys = keys
    values = []
    self.children = children
    self.count = count
    isLeaf = false
  }

  @inlinable
  init(copying other: PersistentTreeNode) {
    keys = other.keys
    values = other.values
    children = other.children
    count = other.count
    isLeaf = other.isLeaf
  }

  /// The index of the first key not less than `key` (binary search).
  @inlinable
  func lowerBound(_ key: Key) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < key { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// An internal node's child whose key range holds `key`: the last child whose first key is
  /// not greater than it (the first child for a key before every child).
  @inlinable
  func childIndex(forKey key: Key) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] <= key { low = middle + 1 } else { high = middle }
    }
    return Swift.max(low - 1, 0)
  }

  /// An internal node's child holding the entry at `offset`; `offset` becomes the offset in
  /// that child.
  @inlinable
  func childIndex(containing offset: inout Int) -> Int {
    var index = 0
    while offset >= children[index].count {
      offset -= children[index].count
      index += 1
    }
    return index
  }

  /// `node`, made uniquely referenced by copying it when it is shared.
  @inlinable
  static func makeUnique(_ node: inout PersistentTreeNode) {
    if !isKnownUniquelyReferenced(&node) {
      node = PersistentTreeNode(copying: node)
    }
  }

  @inlinable
  static func modifyValue<Result>(
    in node: inout PersistentTreeNode, at offset: Int, _ body: (inout Value) throws -> Result
  ) rethrows -> Result {
    makeUnique(&node)
    if node.isLeaf {
      return try body(&node.values[offset])
    }
    var offset = offset
    let index = node.childIndex(containing: &offset)
    return try modifyValue(in: &node.children[index], at: offset, body)
  }

  /// Inserts the entry into the subtree; returns the new right sibling when `node` split.
  @inlinable
  static func insert(into node: inout PersistentTreeNode, key: Key, value: Value)
    -> PersistentTreeNode?
  {
    makeUnique(&node)
    node.count += 1
    if node.isLeaf {
      let slot = node.lowerBound(key)
      node.keys.insert(key, at: slot)
      node.values.insert(value, at: slot)
      guard node.keys.count > capacity else { return nil }
      let half = node.keys.count / 2
      let right = PersistentTreeNode(
        leafKeys: ContiguousArray(node.keys[half...]), values: ContiguousArray(node.values[half...])
      )
      node.keys.removeSubrange(half...)
      node.values.removeSubrange(half...)
      node.count = node.keys.count
      return right
    }
    let index = node.childIndex(forKey: key)
    let split = insert(into: &node.children[index], key: key, value: value)
    node.keys[index] = node.children[index].keys[0]
    guard let split else { return nil }
    node.children.insert(split, at: index + 1)
    node.keys.insert(split.keys[0], at: index + 1)
    guard node.children.count > capacity else { return nil }
    let half = node.children.count / 2
    let right = PersistentTreeNode(children: ContiguousArray(node.children[half...]))
    node.children.removeSubrange(half...)
    node.keys.removeSubrange(half...)
    node.count -= right.count
    return right
  }

  /// Removes the entry at `offset` from the subtree.
  @inlinable
  static func remove(from node: inout PersistentTreeNode, at offset: Int) -> (
    key: Key, value: Value
  ) {
    makeUnique(&node)
    node.count -= 1
    if node.isLeaf {
      return (node.keys.remove(at: offset), node.values.remove(at: offset))
    }
    var offset = offset
    let index = node.childIndex(containing: &offset)
    let removed = remove(from: &node.children[index], at: offset)
    let child = node.children[index]
    if child.count == 0 {
      node.children.remove(at: index)
      node.keys.remove(at: index)
    } else {
      node.keys[index] = child.keys[0]
      if child.width < mergeThreshold {
        node.mergeChild(at: index)
      }
    }
    return removed
  }

  /// Entries of a leaf, children of an internal node.
  @inlinable var width: Int { isLeaf ? keys.count : children.count }

  /// Merges the small child at `index` with a neighbour when the two fit in one node.
  @inlinable
  func mergeChild(at index: Int) {
    let left = index > 0 ? index - 1 : index
    let right = left + 1
    guard right < children.count,
      children[left].width + children[right].width <= Self.capacity
    else { return }
    let absorbed = children[right]
    Self.makeUnique(&children[left])
    let merged = children[left]
    merged.keys.append(contentsOf: absorbed.keys)
    merged.values.append(contentsOf: absorbed.values)
    merged.children.append(contentsOf: absorbed.children)
    merged.count += absorbed.count
    children.remove(at: right)
    keys.remove(at: right)
  }

  /// Calls `body` with each leaf in order; `false` when `body` stopped.
  @inlinable
  func forEachLeaf(_ body: (PersistentTreeNode) -> Bool) -> Bool {
    if isLeaf { return body(self) }
    for child in children where !child.forEachLeaf(body) { return false }
    return true
  }
}
