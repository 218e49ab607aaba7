/// A persistent, counted B+-tree of key-value entries ordered by key: the storage of
/// ``IdentifiedList`` (twice: its elements by order key, and its identifiers by hash).
///
/// Versions share structure. Nodes are immutable: a change to one entry, an insert or a
/// remove makes new nodes for the path from the root to one leaf: O(log N) nodes of
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

  /// The leaf holding the entry at `position`, and the entry's offset in it. O(log N).
  @inlinable
  func leaf(containing position: Int) -> (leaf: Node, offset: Int) {
    var node = root
    var offset = position
    while !node.isLeaf {
      node = node.children[node.childIndex(containing: &offset)]
    }
    return (node, offset)
  }

  /// The position of the entry with `key`, or `nil`. O(log N).
  @inlinable
  func position(of key: Key) -> Int? {
    let (leaf, slot, base) = descend(to: key)
    guard slot < leaf.keys.count, leaf.keys[slot] == key else { return nil }
    return base + slot
  }

  /// The number of entries whose key is less than `key`. O(log N).
  @inlinable
  func lowerBound(_ key: Key) -> Int {
    let (_, slot, base) = descend(to: key)
    return base + slot
  }

  /// The leaf where `key` is or would be, the slot there of the first key not less than it,
  /// and the number of entries in the leaves before. Always inlined into its two callers.
  @inlinable
  @inline(__always)
  func descend(to key: Key) -> (leaf: Node, slot: Int, base: Int) {
    var node = root
    var base = 0
    while !node.isLeaf {
      let index = node.childIndex(forKey: key)
      for child in node.children[..<index] { base += child.count }
      node = node.children[index]
    }
    return (node, node.lowerBound(key), base)
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
    var result: Result?
    root = try root.replacingValue(at: position) { value in result = try body(&value) }
    return result!
  }

  /// Changes the value of the entry with `key`, if there is one, copying the shared nodes on
  /// its path; returns `nil` without calling `body` otherwise.
  @inlinable
  mutating func modifyValue<Result>(
    forKey key: Key, _ body: (inout Value) throws -> Result
  ) rethrows -> Result? {
    guard let position = position(of: key) else { return nil }
    return try modifyValue(at: position, body)
  }

  /// Inserts an entry whose key is not in the tree yet, at the position its key orders it.
  @inlinable
  mutating func insert(key: Key, value: Value) {
    let (left, right) = root.inserting(key: key, value: value)
    root = right.map { Node(children: [left, $0]) } ?? left
  }

  /// Removes and returns the entry at `position`.
  @inlinable
  @discardableResult
  mutating func remove(at position: Int) -> (key: Key, value: Value) {
    let (node, removed) = root.removing(at: position)
    root = node
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
///
/// Immutable: a change makes new nodes along its path and shares the rest. (Immutable fields
/// also spare every read the dynamic exclusivity check that a class's `var` costs.)
@usableFromInline
final class PersistentTreeNode<Key: Comparable, Value> {
  /// The most entries in a leaf and children in an internal node.
  @usableFromInline static var capacity: Int { 32 }
  /// A child smaller than this is merged with a neighbour when both fit in one node.
  @usableFromInline static var mergeThreshold: Int { 8 }

  /// A leaf: the entries' keys. An internal node: the first key of each child.
  @usableFromInline let keys: ContiguousArray<Key>
  /// A leaf's values, one per key; empty in an internal node.
  @usableFromInline let values: ContiguousArray<Value>
  /// An internal node's children; empty in a leaf.
  @usableFromInline let children: ContiguousArray<PersistentTreeNode>
  /// The number of entries in this subtree.
  @usableFromInline let count: Int
  /// Whether this node is a leaf.
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
  convenience init(children: ContiguousArray<PersistentTreeNode>) {
    var keys = ContiguousArray<Key>()
    keys.reserveCapacity(children.count)
    var count = 0
    for child in children {
      keys.append(child.keys[0])
      count += child.count
    }
    self.init(keys: keys, children: children, count: count)
  }

  /// The number of keys less than `key`, or not greater than it when `orEqual` (binary search).
  /// Always inlined, so each caller's `orEqual` is a constant.
  @inlinable
  @inline(__always)
  func countOfKeys(before key: Key, orEqual: Bool) -> Int {
    var low = 0
    var high = keys.count
    while low < high {
      let middle = (low + high) / 2
      if orEqual ? keys[middle] <= key : keys[middle] < key {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The index of the first key not less than `key`.
  @inlinable
  func lowerBound(_ key: Key) -> Int {
    countOfKeys(before: key, orEqual: false)
  }

  /// An internal node's child whose key range holds `key`: the last child whose first key is
  /// not greater than it (the first child for a key before every child).
  @inlinable
  func childIndex(forKey key: Key) -> Int {
    Swift.max(countOfKeys(before: key, orEqual: true) - 1, 0)
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

  /// This subtree with the value at `offset` changed by `body`.
  @inlinable
  func replacingValue(at offset: Int, _ body: (inout Value) throws -> Void) rethrows
    -> PersistentTreeNode
  {
    if isLeaf {
      var values = self.values
      try body(&values[offset])
      return PersistentTreeNode(leafKeys: keys, values: values)
    }
    var offset = offset
    let index = childIndex(containing: &offset)
    var children = self.children
    children[index] = try children[index].replacingValue(at: offset, body)
    return PersistentTreeNode(keys: keys, children: children, count: count)
  }

  /// An internal node whose separators and count are known.
  @inlinable
  init(keys: ContiguousArray<Key>, children: ContiguousArray<PersistentTreeNode>, count: Int) {
    self.keys = keys
    values = []
    self.children = children
    self.count = count
    isLeaf = false
  }

  /// This subtree with the entry inserted: the new node, and its new right sibling when it
  /// split.
  @inlinable
  func inserting(key: Key, value: Value) -> (PersistentTreeNode, PersistentTreeNode?) {
    let capacity = Self.capacity
    if isLeaf {
      let slot = lowerBound(key)
      var keys = self.keys
      var values = self.values
      keys.insert(key, at: slot)
      values.insert(value, at: slot)
      guard keys.count > capacity else {
        return (PersistentTreeNode(leafKeys: keys, values: values), nil)
      }
      let half = keys.count / 2
      return (
        PersistentTreeNode(
          leafKeys: ContiguousArray(keys[..<half]), values: ContiguousArray(values[..<half])),
        PersistentTreeNode(
          leafKeys: ContiguousArray(keys[half...]), values: ContiguousArray(values[half...]))
      )
    }
    let index = childIndex(forKey: key)
    let (child, split) = children[index].inserting(key: key, value: value)
    var children = self.children
    var keys = self.keys
    children[index] = child
    keys[index] = child.keys[0]
    guard let split else {
      return (PersistentTreeNode(keys: keys, children: children, count: count + 1), nil)
    }
    children.insert(split, at: index + 1)
    keys.insert(split.keys[0], at: index + 1)
    guard children.count > capacity else {
      return (PersistentTreeNode(keys: keys, children: children, count: count + 1), nil)
    }
    let half = children.count / 2
    return (
      PersistentTreeNode(children: ContiguousArray(children[..<half])),
      PersistentTreeNode(children: ContiguousArray(children[half...]))
    )
  }

  /// This subtree without the entry at `offset`, and that entry.
  @inlinable
  func removing(at offset: Int) -> (PersistentTreeNode, (key: Key, value: Value)) {
    if isLeaf {
      var keys = self.keys
      var values = self.values
      let removed = (keys.remove(at: offset), values.remove(at: offset))
      return (PersistentTreeNode(leafKeys: keys, values: values), removed)
    }
    var offset = offset
    let index = childIndex(containing: &offset)
    let (child, removed) = children[index].removing(at: offset)
    var children = self.children
    var keys = self.keys
    if child.count == 0 {
      children.remove(at: index)
      keys.remove(at: index)
    } else {
      children[index] = child
      keys[index] = child.keys[0]
      if child.width < Self.mergeThreshold {
        Self.mergeChild(at: index, children: &children, keys: &keys)
      }
    }
    return (PersistentTreeNode(keys: keys, children: children, count: count - 1), removed)
  }

  /// Entries of a leaf, children of an internal node.
  @inlinable var width: Int { isLeaf ? keys.count : children.count }

  /// Merges the small child at `index` with a neighbour when the two fit in one node.
  @inlinable
  static func mergeChild(
    at index: Int, children: inout ContiguousArray<PersistentTreeNode>,
    keys: inout ContiguousArray<Key>
  ) {
    let left = index > 0 ? index - 1 : index
    let right = left + 1
    guard right < children.count,
      children[left].width + children[right].width <= capacity
    else { return }
    let first = children[left]
    let second = children[right]
    let merged =
      first.isLeaf
      ? PersistentTreeNode(
        leafKeys: first.keys + second.keys, values: first.values + second.values)
      : PersistentTreeNode(
        keys: first.keys + second.keys, children: first.children + second.children,
        count: first.count + second.count)
    children[left] = merged
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
