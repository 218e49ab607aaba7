/// An ordered collection of identified elements for large state: elements are found by
/// position and by `id`, and versions share structure, so keeping old versions costs memory
/// in proportion to the changes.
///
/// Use it for the lists of a store's state (a chat's messages, a catalogue's rows): a
/// reducer's change to one element, an insert or a remove copies a few small nodes, not the
/// whole list, even while a subscriber, an observed model, the history or the inspector holds
/// the previous version; and comparing two versions (`==`, the logger's and inspector's
/// diffs) skips the parts they share.
///
/// ```swift
/// struct AppState: Codable, Equatable {
///   var todos: IdentifiedList<Todo> = []
/// }
/// state.todos.append(Todo(id: 7, title: "Buy milk"))
/// state.todos[id: 7]?.isDone = true
/// state.todos.remove(id: 7)
/// ```
///
/// It is a `RandomAccessCollection` and a `MutableCollection` indexed by `Int`, so `List`,
/// `ForEach` and collection algorithms use it as they use an array; an element set by position
/// must keep its `id` (replace an element with another `id` by removing and inserting it). It
/// encodes as a JSON array, so a state persisted with an `Array` loads into it unchanged. Each
/// `id` appears at most once.
///
/// ## How it is built, and why
///
/// Two persistent B+-trees with nodes of 32 entries: the elements in order, each under an
/// *order key* (a number that orders them), and the identifiers ordered by hash, each with its
/// element's order key. A change copies the path to one leaf in each tree it touches (three or
/// four nodes at 100,000 elements). Alternatives measured or weighed: a flat array copies
/// everything once a version is kept; a two-level chunked array copies about √N; an
/// array plus a dictionary (TCA's `IdentifiedArray`) copies both. Inserting between two
/// elements whose order keys are adjacent relabels the smallest crowded neighbourhood around
/// them (order maintenance), which costs O(log N) relabelled elements per insert amortized.
///
/// - Complexity: Access by position or by `id`, a change of one element, `insert`, `remove`,
///   `index(id:)`: O(log N). `==`: O(log N) for versions that differ in one element (plus the
///   compared elements). Creating from a sequence: O(N log N).
public struct IdentifiedList<Element: Identifiable> {
  /// The identifier of an element.
  public typealias ID = Element.ID

  /// The elements in order, each under its order key.
  @usableFromInline var order: PersistentTree<UInt64, Element>
  /// Every identifier with its element's order key, ordered by hash.
  @usableFromInline var identifiers: PersistentTree<IdentifierKey, ID>

  /// An identifier's place in ``identifiers``: its hash, then its element's order key (which
  /// makes it unique when hashes collide).
  @usableFromInline
  struct IdentifierKey: Comparable {
    @usableFromInline let hash: Int
    @usableFromInline let order: UInt64

    @inlinable
    init(hash: Int, order: UInt64) {
      self.hash = hash
      self.order = order
    }

    @inlinable
    static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.hash != rhs.hash ? lhs.hash < rhs.hash : lhs.order < rhs.order
    }
  }

  /// The distance between neighbouring order keys after a renumbering.
  @usableFromInline static var spacing: UInt64 { 1 << 32 }
  /// The order key of the first element after a renumbering: room for 2^30 elements before
  /// it and 2^30 after.
  @usableFromInline static var firstKey: UInt64 { 1 << 62 }

  /// An empty list.
  @inlinable
  public init() {
    order = PersistentTree()
    identifiers = PersistentTree()
  }

  /// A list of `elements`, whose `id`s must all differ.
  ///
  /// - Precondition: No two elements have the same `id`.
  @inlinable
  public init(uniqueElements elements: some Sequence<Element>) {
    guard let list = Self(checking: elements) else {
      preconditionFailure("IdentifiedList: two elements have the same id")
    }
    self = list
  }

  /// A list of `elements`, or `nil` when two of them have the same `id`.
  @inlinable
  init?(checking elements: some Sequence<Element>) {
    var key = Self.firstKey
    var entries: [(UInt64, Element)] = []
    entries.reserveCapacity(elements.underestimatedCount)
    for element in elements {
      entries.append((key, element))
      key &+= Self.spacing
    }
    var index = entries.map { (IdentifierKey(hash: $0.1.id.hashValue, order: $0.0), $0.1.id) }
    index.sort { $0.0 < $1.0 }
    var previous: Int?
    var runStart = 0
    for position in index.indices {
      let hash = index[position].0.hash
      if hash != previous {
        previous = hash
        runStart = position
        continue
      }
      for earlier in runStart..<position where index[earlier].1 == index[position].1 {
        return nil
      }
    }
    order = PersistentTree(sorted: entries)
    identifiers = PersistentTree(sorted: index)
  }

  /// The elements as an array.
  @inlinable
  public var elements: [Element] { Array(self) }

  /// The identifiers of the elements, in order.
  @inlinable
  public var ids: LazyMapCollection<Self, ID> { lazy.map(\.id) }

  // MARK: - Identifiers

  /// The order key of the element with `id`, or `nil`.
  @inlinable
  func orderKey(of id: ID) -> UInt64? {
    let hash = id.hashValue
    var position = identifiers.lowerBound(IdentifierKey(hash: hash, order: 0))
    while position < identifiers.count {
      let entry = identifiers.entry(at: position)
      guard entry.key.hash == hash else { return nil }
      if entry.value == id { return entry.key.order }
      position += 1
    }
    return nil
  }

  /// Whether an element has `id`. O(log N).
  @inlinable
  public func contains(id: ID) -> Bool { orderKey(of: id) != nil }

  /// The position of the element with `id`, or `nil`. O(log N).
  @inlinable
  public func index(id: ID) -> Int? {
    guard let key = orderKey(of: id) else { return nil }
    return order.position(of: key)
  }

  /// The element with `id`: `nil` when there is none. Setting an element changes it in place
  /// (its `id` must be `id`), or appends it when there was none; setting `nil` removes it.
  ///
  /// - Complexity: O(log N).
  @inlinable
  public subscript(id id: ID) -> Element? {
    get {
      guard let key = orderKey(of: id) else { return nil }
      return order.value(forKey: key)
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      precondition(
        newValue.id == id, "IdentifiedList: the element set for an id must have that id")
      if let key = orderKey(of: id) {
        _ = order.modifyValue(forKey: key) { $0 = newValue }
      } else {
        append(newValue)
      }
    }
  }

  /// Changes the element with `id` in place; returns `nil` without calling `body` when there
  /// is none. The element's `id` must not change.
  ///
  /// - Complexity: O(log N).
  @inlinable
  @discardableResult
  public mutating func update<Result>(
    id: ID, _ body: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard let key = orderKey(of: id) else { return nil }
    return try order.modifyValue(forKey: key) { element in
      let result = try body(&element)
      precondition(element.id == id, "IdentifiedList: an update changed the element's id")
      return result
    }
  }

  // MARK: - Inserting and removing

  /// Appends `element` unless an element with its `id` is already in the list.
  ///
  /// - Returns: Whether it was inserted, and the position of the element with its `id`.
  /// - Complexity: O(log N).
  @inlinable
  @discardableResult
  public mutating func append(_ element: Element) -> (inserted: Bool, index: Int) {
    insert(element, at: count)
  }

  /// Appends the elements whose `id`s are not in the list yet, in order.
  @inlinable
  public mutating func append(contentsOf elements: some Sequence<Element>) {
    for element in elements { append(element) }
  }

  /// Inserts `element` at `position` unless an element with its `id` is already in the list.
  ///
  /// - Returns: Whether it was inserted, and the position of the element with its `id`.
  /// - Complexity: O(log N); when the order keys around `position` ran out of room (after
  ///   about 30 inserts at one place), the crowded neighbourhood is relabelled: O(log² N)
  ///   amortized.
  @inlinable
  @discardableResult
  public mutating func insert(_ element: Element, at position: Int) -> (inserted: Bool, index: Int)
  {
    precondition(
      position >= 0 && position <= count, "IdentifiedList: insert position out of range")
    if let existing = index(id: element.id) { return (false, existing) }
    let key = freeKey(before: position) ?? makeRoom(before: position)
    order.insert(key: key, value: element)
    identifiers.insert(
      key: IdentifierKey(hash: element.id.hashValue, order: key), value: element.id)
    return (true, position)
  }

  /// An order key between the elements at `position - 1` and `position`, or `nil` when they
  /// are adjacent.
  @inlinable
  func freeKey(before position: Int) -> UInt64? {
    let count = order.count
    if count == 0 { return Self.firstKey }
    if position == count {
      let last = order.entry(at: count - 1).key
      return last <= UInt64.max - Self.spacing ? last + Self.spacing : nil
    }
    let next = order.entry(at: position).key
    if position == 0 {
      return next >= Self.spacing ? next - Self.spacing : nil
    }
    let previous = order.entry(at: position - 1).key
    return next - previous >= 2 ? previous + (next - previous) / 2 : nil
  }

  /// Relabels the elements around `position` whose order keys ran out of room, and returns
  /// the order key for a new element at `position`.
  ///
  /// Order maintenance (Bender, Cole, Demaine, Farach-Colton and Zito, 2002): the keys are
  /// split into aligned ranges of 2^level keys; the smallest range around `position` that
  /// holds at most (2 / 1.25)^level elements, the new one included, gets its elements spread
  /// evenly over it. A range that passes leaves gaps of at least 1.25^level keys, so the
  /// relabelled neighbourhood grows only as the elements crowd, and an insert relabels
  /// O(log N) elements amortized. Only when no range up to half the key space passes (about
  /// 7 × 10^12 elements crowded together) does the whole list get new keys.
  ///
  /// - Complexity: O(k log N) for the k relabelled elements.
  @inlinable
  mutating func makeRoom(before position: Int) -> UInt64 {
    let count = order.count
    let anchor = order.entry(at: position > 0 ? position - 1 : position).key
    var capacity = 1.0
    for level in 1..<64 {
      capacity *= 1.6
      let size = UInt64(1) << level
      let start = anchor & ~(size - 1)
      let low = order.lowerBound(start)
      let high = start > UInt64.max - size ? count : order.lowerBound(start + size)
      let needed = high - low + 1
      guard Double(needed) <= capacity, UInt64(needed) < size else { continue }
      return relabel(
        positions: low..<high, over: start, spacing: size / UInt64(needed + 1),
        leavingRoomAt: position)
    }
    renumber()
    return freeKey(before: position)!
  }

  /// Gives the elements at `positions` the keys `start + spacing`, `start + 2 × spacing`, …,
  /// skipping the one for a new element at `position`, which it returns.
  @inlinable
  mutating func relabel(
    positions: Range<Int>, over start: UInt64, spacing: UInt64, leavingRoomAt position: Int
  ) -> UInt64 {
    var moved: [Element] = []
    moved.reserveCapacity(positions.count)
    for _ in positions {
      let removed = order.remove(at: positions.lowerBound)
      removeIdentifier(removed.value.id, order: removed.key)
      moved.append(removed.value)
    }
    let room = position - positions.lowerBound
    for (offset, element) in moved.enumerated() {
      let slot = UInt64(offset < room ? offset + 1 : offset + 2)
      let key = start + slot * spacing
      order.insert(key: key, value: element)
      identifiers.insert(
        key: IdentifierKey(hash: element.id.hashValue, order: key), value: element.id)
    }
    return start + UInt64(room + 1) * spacing
  }

  /// Gives every element a new order key, evenly spaced. O(N log N).
  @inlinable
  mutating func renumber() {
    self = Self(checking: Array(self))!
  }

  /// Removes and returns the element at `position`.
  ///
  /// - Complexity: O(log N).
  @inlinable
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    precondition(position >= 0 && position < count, "IdentifiedList: index out of range")
    let removed = order.remove(at: position)
    removeIdentifier(removed.value.id, order: removed.key)
    return removed.value
  }

  /// Removes and returns the element with `id`, or returns `nil` when there is none.
  ///
  /// - Complexity: O(log N).
  @inlinable
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let key = orderKey(of: id), let position = order.position(of: key) else { return nil }
    return remove(at: position)
  }

  @inlinable
  mutating func removeIdentifier(_ id: ID, order key: UInt64) {
    let place = IdentifierKey(hash: id.hashValue, order: key)
    guard let position = identifiers.position(of: place) else {
      preconditionFailure("IdentifiedList: an element's identifier was missing from the index")
    }
    identifiers.remove(at: position)
  }

  /// Removes every element.
  @inlinable
  public mutating func removeAll() {
    self = Self()
  }

  /// Removes the elements that satisfy `shouldBeRemoved`. O(N log N).
  @inlinable
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    let kept = try filter { try !shouldBeRemoved($0) }
    if kept.count != count { self = Self(checking: kept)! }
  }

  /// Sorts the list in place. O(N log N).
  @inlinable
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    self = Self(checking: try sorted(by: areInIncreasingOrder))!
  }

  /// Moves the elements at `source` so that they stand before the element that was at
  /// `destination` (the shape of SwiftUI's `onMove`).
  ///
  /// - Complexity: O(k log N) for k moved elements.
  @inlinable
  public mutating func move(fromOffsets source: some Sequence<Int>, toOffset destination: Int) {
    let offsets = Array(Set(source)).sorted()
    precondition(
      offsets.allSatisfy { $0 >= 0 && $0 < count } && destination >= 0 && destination <= count,
      "IdentifiedList: move offsets out of range")
    var moved: [Element] = []
    var target = destination
    for offset in offsets.reversed() {
      moved.append(remove(at: offset))
      if offset < destination { target -= 1 }
    }
    for element in moved {
      insert(element, at: target)
    }
  }
}

// MARK: - Collection

extension IdentifiedList: RandomAccessCollection, MutableCollection {
  public typealias Index = Int
  public typealias Indices = Range<Int>

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { order.count }
  @inlinable public var count: Int { order.count }
  @inlinable public var isEmpty: Bool { order.count == 0 }
  @inlinable public var indices: Range<Int> { 0..<order.count }
  @inlinable public func index(after index: Int) -> Int { index + 1 }
  @inlinable public func index(before index: Int) -> Int { index - 1 }

  /// The element at `position`. Setting it changes it in place; the new element must have the
  /// same `id`.
  ///
  /// - Complexity: O(log N).
  @inlinable
  public subscript(position: Int) -> Element {
    get {
      precondition(position >= 0 && position < count, "IdentifiedList: index out of range")
      return order.entry(at: position).value
    }
    set {
      precondition(position >= 0 && position < count, "IdentifiedList: index out of range")
      order.modifyValue(at: position) { element in
        precondition(
          element.id == newValue.id,
          "IdentifiedList: an element set at a position must keep its id; remove and insert to replace it"
        )
        element = newValue
      }
    }
  }

  /// Exchanges the elements at `i` and `j`.
  @inlinable
  public mutating func swapAt(_ i: Int, _ j: Int) {
    guard i != j else { return }
    let first = order.entry(at: i)
    let second = order.entry(at: j)
    order.modifyValue(at: i) { $0 = second.value }
    order.modifyValue(at: j) { $0 = first.value }
    removeIdentifier(first.value.id, order: first.key)
    removeIdentifier(second.value.id, order: second.key)
    identifiers.insert(
      key: IdentifierKey(hash: first.value.id.hashValue, order: second.key), value: first.value.id)
    identifiers.insert(
      key: IdentifierKey(hash: second.value.id.hashValue, order: first.key), value: second.value.id
    )
  }

  /// Iterates leaf by leaf: O(1) per element.
  @inlinable
  public func makeIterator() -> Iterator { Iterator(self) }

  /// An iterator over the elements in order.
  public struct Iterator: IteratorProtocol {
    @usableFromInline var stack: [(PersistentTreeNode<UInt64, Element>, Int)]
    @usableFromInline var leaf: PersistentTreeNode<UInt64, Element>?
    @usableFromInline var offset = 0

    @inlinable
    init(_ list: IdentifiedList) {
      stack = [(list.order.root, 0)]
      leaf = nil
    }

    @inlinable
    public mutating func next() -> Element? {
      while true {
        if let leaf, offset < leaf.values.count {
          defer { offset += 1 }
          return leaf.values[offset]
        }
        guard let (node, child) = stack.popLast() else { return nil }
        if node.isLeaf {
          leaf = node
          offset = 0
          continue
        }
        if child + 1 < node.children.count { stack.append((node, child + 1)) }
        stack.append((node.children[child], 0))
      }
    }
  }
}

extension IdentifiedList: ExpressibleByArrayLiteral {
  /// A list of the literal's elements, whose `id`s must all differ.
  @inlinable
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedList: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { Array(self).description }
  public var debugDescription: String { "IdentifiedList(\(Array(self).debugDescription))" }
}

extension IdentifiedList: CustomReflectable {
  /// Reflects as a collection of its elements (what dumps and reflection-based diffs see).
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
  }
}

// Safety: the trees' nodes are immutable (a change makes new nodes), so versions on different
// threads share only immutable nodes. Elements are the only other content, hence the `Element: Sendable` bound.
extension IdentifiedList: @unchecked Sendable where Element: Sendable {}
