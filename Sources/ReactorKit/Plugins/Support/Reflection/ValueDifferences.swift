/// One place where two values differ, found by reflection (see ``valueDifferences(from:to:render:isRedacted:redactedText:)``).
package struct ValueDifference: Equatable, Sendable {
  /// How the values differ at ``path``.
  package enum Kind: Equatable, Sendable {
    /// Both values exist and render differently (or have different types).
    case changed(old: String, new: String)
    /// A collection element or dictionary entry present only in the old value.
    case removed(old: String)
    /// A collection element or dictionary entry present only in the new value.
    case added(new: String)
    /// A set element present only in the old value.
    case missingElement(String)
    /// A set element present only in the new value.
    case extraElement(String)
  }

  /// The path from the root, key-path style without the backslash: `.user.name`,
  /// `.items[2]`, `.settings[theme]`; empty for the root itself.
  package let path: String
  package let kind: Kind

  package init(path: String, kind: Kind) {
    self.path = path
    self.kind = kind
  }
}

/// The places where `old` and `new` differ, one per differing leaf, in field order.
///
/// Structs, classes and tuples are compared field by field, enums case by case and then by
/// payload, optionals by presence and then by value, arrays element by element, dictionaries
/// key by key (sorted), sets element by element; other values (and anything deeper than
/// `maximumDepth`) by their renderings.
///
/// Parts that are bit for bit the same (the same array storage, the same object, the same
/// inline bytes) are skipped without reflection. Arrays are compared as their common prefix
/// and suffix (found by comparing memory) around the part that changed, so an element
/// inserted or removed in the middle is one difference, and the cost grows with the size of
/// the change rather than of the array (plus one memory comparison).
///
/// - Parameters:
///   - old: The earlier value.
///   - new: The later value.
///   - render: Renders a leaf value; two leaves differ when their renderings (or types) do.
///   - isRedacted: Whether a field, enum case or dictionary key of this name is secret: its
///     differences are still reported, with its values hidden (see `renderSecret`).
///   - redactedText: What stands in for a redacted value.
///   - renderSecret: Renders a value inside a secret-named container, keeping its shape
///     (``ValueRenderer/renderSecretPart(_:)``). With it, a secret-named container is
///     compared part by part and only its values are hidden; without it (`nil`), every
///     difference under a secret name shows `redactedText` on both sides.
///   - maximumDepth: How deep to descend before comparing renderings.
///   - skipsEqualValues: Whether to skip, without reflection, any part whose values are
///     `Equatable` and equal (or the same object): much faster for large values with small
///     changes, but a type whose `==` ignores some fields hides their differences.
///   - identifiesElements: Whether arrays of `Identifiable` elements are matched by `id`: an
///     element inserted or removed, or changed in place, is reported as such, at its index.
/// - Returns: The differences; empty when reflection shows none.
package func valueDifferences(
  from old: Any, to new: Any, render: (Any) -> String,
  isRedacted: (String) -> Bool = { _ in false }, redactedText: String = "<redacted>",
  renderSecret: ((Any) -> String)? = nil, maximumDepth: Int = 32,
  skipsEqualValues: Bool = false, identifiesElements: Bool = false
) -> [ValueDifference] {
  cappedValueDifferences(
    from: old, to: new, render: render, isRedacted: isRedacted, redactedText: redactedText,
    renderSecret: renderSecret, maximumDepth: maximumDepth, skipsEqualValues: skipsEqualValues,
    identifiesElements: identifiesElements, maximumCount: .max
  ).differences
}

/// The first `maximumCount` places where `old` and `new` differ (see
/// ``valueDifferences(from:to:render:isRedacted:redactedText:renderSecret:maximumDepth:skipsEqualValues:identifiesElements:)``),
/// and how many more differ.
///
/// Past the cap nothing is rendered into a difference and nothing is descended into: each
/// further differing part (a field, an element, an entry) counts once in `omitted`, found by
/// `==` where the values are `Equatable` and by comparing renderings otherwise.
///
/// - Complexity: Linear in the size of the parts that differ, plus a memory comparison of
///   each changed array; unchanged parts that share storage cost nothing.
package func cappedValueDifferences(
  from old: Any, to new: Any, render: (Any) -> String,
  isRedacted: (String) -> Bool = { _ in false }, redactedText: String = "<redacted>",
  renderSecret: ((Any) -> String)? = nil, maximumDepth: Int = 32,
  skipsEqualValues: Bool = false, identifiesElements: Bool = false, maximumCount: Int
) -> (differences: [ValueDifference], omitted: Int) {
  withoutActuallyEscaping(render) { render in
    withoutActuallyEscaping(isRedacted) { isRedacted in
      var collector = DifferenceCollector(
        render: render, isRedacted: isRedacted, redactedText: redactedText,
        renderSecret: renderSecret, maximumDepth: maximumDepth,
        skipsEqualValues: skipsEqualValues, identifiesElements: identifiesElements,
        maximumCount: max(0, maximumCount))
      collector.collect(old, new, path: "", depth: 0, secrecy: .visible)
      return (collector.differences, collector.omitted)
    }
  }
}

/// How much of a value under comparison may be shown.
private enum Secrecy {
  /// All of it.
  case visible
  /// Its shape: it is inside a secret-named container; its values are hidden.
  case nested
  /// Nothing: a secret-named value rendered whole (or any secret, without `renderSecret`).
  case opaque
}

private struct DifferenceCollector {
  let render: (Any) -> String
  let isRedacted: (String) -> Bool
  let redactedText: String
  let renderSecret: ((Any) -> String)?
  let maximumDepth: Int
  let skipsEqualValues: Bool
  let identifiesElements: Bool
  let maximumCount: Int
  var differences: [ValueDifference] = []
  /// Differences found past `maximumCount`, counted but not rendered.
  var omitted = 0

  var isFull: Bool { differences.count >= maximumCount }

  func text(_ value: Any, _ secrecy: Secrecy) -> String {
    switch secrecy {
    case .visible: return render(value)
    case .nested: return renderSecret?(value) ?? redactedText
    case .opaque: return redactedText
    }
  }

  /// The secrecy of a part named `name` (a field, an enum case, a string key) of a value of
  /// secrecy `parent`.
  func secrecy(of name: String?, _ old: Any, _ new: Any, parent: Secrecy) -> Secrecy {
    guard parent != .opaque, let name, isRedacted(name) else { return parent }
    guard renderSecret != nil, ValueRenderer.isContainer(old) || ValueRenderer.isContainer(new)
    else { return .opaque }
    return .nested
  }

  mutating func append(_ path: String, _ kind: ValueDifference.Kind) {
    if isFull {
      omitted += 1
    } else {
      differences.append(ValueDifference(path: path, kind: kind))
    }
  }

  /// Past the cap: counts `old` and `new` once if they differ, without descending.
  private mutating func count(_ old: Any, _ new: Any) {
    if areIdentical(old, new) { return }
    if skipsEqualValues && areKnownEqual(old, new) { return }
    if type(of: old) != type(of: new) || !(old is any Equatable) {
      if type(of: old) == type(of: new) && render(old) == render(new) { return }
    } else if areKnownEqual(old, new) {
      return
    }
    omitted += 1
  }

  private mutating func leaf(_ old: Any, _ new: Any, path: String, secrecy: Secrecy) {
    let oldText = render(old)
    let newText = render(new)
    guard oldText != newText || type(of: old) != type(of: new) else { return }
    if secrecy == .visible {
      append(path, .changed(old: oldText, new: newText))
    } else {
      append(path, .changed(old: text(old, secrecy), new: text(new, secrecy)))
    }
  }

  mutating func collect(_ old: Any, _ new: Any, path: String, depth: Int, secrecy: Secrecy) {
    if isFull { return count(old, new) }
    guard type(of: old) == type(of: new) else {
      leaf(old, new, path: path, secrecy: secrecy)
      return
    }
    if areIdentical(old, new) { return }
    if UnreflectableTypes.shared.contains(type(of: old)) {
      // Casting or reflecting its parts would stop the program: it is one changed value.
      let name = String(describing: type(of: old))
      let visible = secrecy == .visible
      append(
        path,
        .changed(
          old: visible ? "\(name) (not reflectable)" : redactedText,
          new: visible ? "\(name) (not reflectable; its bytes changed)" : redactedText))
      return
    }
    if depth < maximumDepth, let array = old as? any ComparedArray {
      array.collectDifferences(to: new, into: &self, path: path, depth: depth, secrecy: secrecy)
      return
    }
    // A value holding collections is compared part by part instead: its `==` would compare
    // every element of a changed collection once more at each level above it.
    if skipsEqualValues && !CollectionHolders.shared.holdsCollections(old)
      && areKnownEqual(old, new)
    {
      return
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard depth < maximumDepth, let style = oldMirror.displayStyle,
      style == newMirror.displayStyle
    else {
      leaf(old, new, path: path, secrecy: secrecy)
      return
    }
    switch style {
    case .optional:
      switch (oldMirror.children.first?.value, newMirror.children.first?.value) {
      case (nil, nil):
        return
      case (let oldValue?, let newValue?):
        collect(oldValue, newValue, path: path, depth: depth + 1, secrecy: secrecy)
      default:
        leaf(old, new, path: path, secrecy: secrecy)
      }
    case .collection:
      collectElements(oldMirror, newMirror, path: path, depth: depth, secrecy: secrecy)
    case .dictionary:
      collectEntries(oldMirror, newMirror, path: path, depth: depth, secrecy: secrecy)
    case .set:
      let oldElements = Set(oldMirror.children.map { render($0.value) })
      let newElements = Set(newMirror.children.map { render($0.value) })
      guard oldElements != newElements else { return }
      if secrecy == .visible {
        for missing in oldElements.subtracting(newElements).sorted() {
          append(path, .missingElement(missing))
        }
        for extra in newElements.subtracting(oldElements).sorted() {
          append(path, .extraElement(extra))
        }
      } else {
        // The elements' renderings are secret: report them by their hidden forms.
        for missing in hidden(oldMirror, notIn: newElements, secrecy) {
          append(path, .missingElement(missing))
        }
        for extra in hidden(newMirror, notIn: oldElements, secrecy) {
          append(path, .extraElement(extra))
        }
      }
    case .enum:
      let oldCase = oldMirror.children.first
      let newCase = newMirror.children.first
      guard let oldCase, let newCase, oldCase.label == newCase.label else {
        leaf(old, new, path: path, secrecy: isRedactedCase(old, new) ? .opaque : secrecy)
        return
      }
      let label = oldCase.label ?? "payload"
      collect(
        oldCase.value, newCase.value, path: "\(path).\(label)", depth: depth + 1,
        secrecy: self.secrecy(of: label, oldCase.value, newCase.value, parent: secrecy))
    case .struct, .class, .tuple:
      let oldChildren = Array(oldMirror.children)
      let newChildren = Array(newMirror.children)
      guard !oldChildren.isEmpty, oldChildren.count == newChildren.count else {
        leaf(old, new, path: path, secrecy: secrecy)
        return
      }
      let before = differences.count + omitted
      for (index, (oldChild, newChild)) in zip(oldChildren, newChildren).enumerated() {
        collectField(
          oldChild, newChild, index: index, path: path, depth: depth, secrecy: secrecy)
      }
      if differences.count + omitted == before && style == .class {
        leaf(old, new, path: path, secrecy: secrecy)
      }
    default:
      leaf(old, new, path: path, secrecy: secrecy)
    }
  }

  /// The hidden forms of the elements of a set whose renderings are not in `rendered`.
  private func hidden(_ mirror: Mirror, notIn rendered: Set<String>, _ secrecy: Secrecy)
    -> [String]
  {
    mirror.children.filter { !rendered.contains(render($0.value)) }
      .map { text($0.value, secrecy) }.sorted()
  }

  /// One field of a struct, class or tuple; a `@Pulse` property as the property.
  private mutating func collectField(
    _ oldChild: Mirror.Child, _ newChild: Mirror.Child, index: Int, path: String, depth: Int,
    secrecy: Secrecy
  ) {
    let (label, oldValue) = ValueRenderer.field(oldChild.label, oldChild.value)
    let newValue = ValueRenderer.field(newChild.label, newChild.value).value
    let tupleLabel = oldChild.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
    let childPath = "\(path).\(label ?? tupleLabel ?? "\(index)")"
    let childSecrecy = self.secrecy(of: label, oldValue, newValue, parent: secrecy)
    let before = differences.count + omitted
    collect(oldValue, newValue, path: childPath, depth: depth + 1, secrecy: childSecrecy)
    // A pulse set again to an equal value did change: it pulses once more.
    if differences.count + omitted == before,
      let oldPulse = oldChild.value as? any ReflectedPulse,
      let newPulse = newChild.value as? any ReflectedPulse,
      oldPulse.reflectedUpdateCount != newPulse.reflectedUpdateCount
    {
      append(
        childPath,
        .changed(
          old: text(oldValue, childSecrecy), new: text(newValue, childSecrecy) + " (again)"))
    }
  }

  /// Whether `old` and `new` are bit for bit the same value: the same object, the same
  /// storage of a collection, or equal inline bytes. Such values are equal whatever their type.
  private func areIdentical(_ old: Any, _ new: Any) -> Bool {
    type(of: old) == type(of: new) && MemoryComparison.haveSameBytes(old, sameTypeAs: new)
  }

  /// Whether `old` and `new` are the same object, or `Equatable` values of one type that are
  /// equal.
  private func areKnownEqual(_ old: Any, _ new: Any) -> Bool {
    if type(of: old) is AnyClass, type(of: new) is AnyClass {
      return (old as AnyObject) === (new as AnyObject)
    }
    guard let old = old as? any Equatable else { return false }
    return isEqual(old, new)
  }

  private func isEqual<Value: Equatable>(_ old: Value, _ new: Any) -> Bool {
    guard let new = new as? Value else { return false }
    return old == new
  }

  /// Whether either value is an enum case whose name is redacted.
  private func isRedactedCase(_ old: Any, _ new: Any) -> Bool {
    for value in [old, new] {
      if let label = Mirror(reflecting: value).children.first?.label, isRedacted(label) {
        return true
      }
    }
    return false
  }

  private mutating func collectElements(
    _ oldMirror: Mirror, _ newMirror: Mirror, path: String, depth: Int, secrecy: Secrecy
  ) {
    let oldElements = oldMirror.children.map(\.value)
    let newElements = newMirror.children.map(\.value)
    collectPositions(
      oldElements[...], newElements[...], offset: 0, path: path, depth: depth, secrecy: secrecy)
  }

  /// Compares `old` and `new` position by position (their indices are `offset` more in the
  /// whole collection), then reports the elements only one has.
  mutating func collectPositions<Element>(
    _ old: ArraySlice<Element>, _ new: ArraySlice<Element>, offset: Int, path: String,
    depth: Int, secrecy: Secrecy
  ) {
    let common = min(old.count, new.count)
    for position in 0..<max(old.count, new.count) {
      if isFull && position >= common {
        // Past the cap, an added or removed element is counted without rendering it.
        omitted += 1
        continue
      }
      let elementPath = "\(path)[\(offset + position)]"
      if position >= new.count {
        append(elementPath, .removed(old: text(old[old.startIndex + position], secrecy)))
      } else if position >= old.count {
        append(elementPath, .added(new: text(new[new.startIndex + position], secrecy)))
      } else {
        collect(
          old[old.startIndex + position], new[new.startIndex + position], path: elementPath,
          depth: depth + 1, secrecy: secrecy)
      }
    }
  }

  /// Compares the arrays `old` and `new`: their common prefix and suffix (elements bit for
  /// bit the same) are skipped after one memory comparison; the rest is matched by `id` when
  /// the elements are `Identifiable` (and ``identifiesElements`` is set), by position
  /// otherwise.
  mutating func collectArray<Element>(
    _ old: [Element], _ new: [Element], path: String, depth: Int, secrecy: Secrecy
  ) {
    let (prefix, suffix) = sharedEnds(old, new)
    collectMiddles(
      old[prefix..<(old.count - suffix)], new[prefix..<(new.count - suffix)], offset: prefix,
      path: path, depth: depth, secrecy: secrecy)
  }

  /// Compares the parts of two collections that differ, `old` and `new`, which start at
  /// position `offset` of both (everything before and after them is shared): by `id` when the
  /// elements are `Identifiable` (and ``identifiesElements`` is set), by position otherwise.
  mutating func collectMiddles<Element>(
    _ old: ArraySlice<Element>, _ new: ArraySlice<Element>, offset: Int, path: String,
    depth: Int, secrecy: Secrecy
  ) {
    if old.isEmpty && new.isEmpty { return }
    if identifiesElements, !isFull,
      collectByIdentity(old, new, offset: offset, path: path, depth: depth, secrecy: secrecy)
    {
      return
    }
    collectPositions(old, new, offset: offset, path: path, depth: depth, secrecy: secrecy)
  }

  /// Matches the elements by `id`, if they are `Identifiable` and keep their order: an
  /// element of one side only is removed or added, the others are compared. Returns `false`
  /// (having reported nothing) when the elements have no `id` or were reordered.
  private mutating func collectByIdentity<Element>(
    _ old: ArraySlice<Element>, _ new: ArraySlice<Element>, offset: Int, path: String,
    depth: Int, secrecy: Secrecy
  ) -> Bool {
    guard old.count != new.count || old.count > 1, let oldIDs = identities(old),
      let newIDs = identities(new)
    else { return false }
    let oldSet = Set(oldIDs)
    let newSet = Set(newIDs)
    guard oldSet.count == oldIDs.count, newSet.count == newIDs.count,
      oldIDs.filter(newSet.contains) == newIDs.filter(oldSet.contains)
    else { return false }
    var oldIndex = old.startIndex
    var newIndex = new.startIndex
    // The position of an element in the whole collection.
    func position(_ index: Int, in slice: ArraySlice<Element>) -> Int {
      offset + index - slice.startIndex
    }
    while oldIndex < old.endIndex || newIndex < new.endIndex {
      if oldIndex < old.endIndex, !newSet.contains(oldIDs[oldIndex - old.startIndex]) {
        append(
          "\(path)[\(position(oldIndex, in: old))]",
          .removed(old: isFull ? "" : text(old[oldIndex], secrecy)))
        oldIndex += 1
      } else if newIndex < new.endIndex, !oldSet.contains(newIDs[newIndex - new.startIndex]) {
        append(
          "\(path)[\(position(newIndex, in: new))]",
          .added(new: isFull ? "" : text(new[newIndex], secrecy)))
        newIndex += 1
      } else {
        collect(
          old[oldIndex], new[newIndex], path: "\(path)[\(position(newIndex, in: new))]",
          depth: depth + 1, secrecy: secrecy)
        oldIndex += 1
        newIndex += 1
      }
    }
    return true
  }

  private func identities<Element>(_ elements: ArraySlice<Element>) -> [AnyHashable]? {
    func identity<Value: Identifiable>(_ value: Value) -> AnyHashable { AnyHashable(value.id) }
    var result: [AnyHashable] = []
    result.reserveCapacity(elements.count)
    for element in elements {
      guard let element = element as? any Identifiable else { return nil }
      result.append(identity(element))
    }
    return result
  }

  /// How many elements at the start, and then at the end, `old` and `new` share: the same
  /// bytes, or (when skipping equal values) equal by the elements' `==`.
  ///
  /// Elements are compared a machine word at a time over their `size` bytes (a copy copies
  /// fields, not the padding after them). An element whose bytes differ is then compared with
  /// `==` when it is `Equatable` and equal values may be skipped (padding between fields, an
  /// equal string in new storage); otherwise it ends the shared run.
  private func sharedEnds<Element>(_ old: [Element], _ new: [Element]) -> (Int, Int) {
    guard MemoryLayout<Element>.size > 0 else { return (min(old.count, new.count), 0) }
    let isEqual = skipsEqualValues ? MemoryComparison.elementEquality(old, new) : nil
    return MemoryComparison.sharedEnds(old, new, isEqual: isEqual)
  }

  private mutating func collectEntries(
    _ oldMirror: Mirror, _ newMirror: Mirror, path: String, depth: Int, secrecy: Secrecy
  ) {
    let oldEntries = dictionaryEntries(oldMirror)
    let newEntries = dictionaryEntries(newMirror)
    let keys = Set(oldEntries.keys).union(newEntries.keys).sorted()
    for key in keys {
      let entryPath = "\(path)[\(secrecy == .visible ? key : redactedText)]"
      let name = oldEntries[key]?.name ?? newEntries[key]?.name ?? key
      let oldValue = oldEntries[key]?.value
      let newValue = newEntries[key]?.value
      let entrySecrecy = self.secrecy(
        of: name, oldValue ?? newValue as Any, newValue ?? oldValue as Any, parent: secrecy)
      switch (oldValue, newValue) {
      case (let oldValue?, let newValue?):
        collect(oldValue, newValue, path: entryPath, depth: depth + 1, secrecy: entrySecrecy)
      case (let oldValue?, nil):
        append(entryPath, .removed(old: text(oldValue, entrySecrecy)))
      case (nil, let newValue?):
        append(entryPath, .added(new: text(newValue, entrySecrecy)))
      case (nil, nil):
        break
      }
    }
  }

  /// A dictionary's entries keyed by the rendering of their keys, with the key's name for
  /// redaction (the string itself for string keys).
  private func dictionaryEntries(_ mirror: Mirror) -> [String: (name: String, value: Any)] {
    var entries: [String: (name: String, value: Any)] = [:]
    for child in mirror.children {
      let pair = Array(Mirror(reflecting: child.value).children)
      guard pair.count == 2 else { continue }
      let rendered = render(pair[0].value)
      entries[rendered] = (ValueRenderer.keyName(pair[0].value) ?? rendered, pair[1].value)
    }
    return entries
  }
}

/// An array, compared through ``DifferenceCollector/collectArray(_:_:path:depth:secrecy:)``
/// with its element type known.
private protocol ComparedArray {
  func collectDifferences(
    to other: Any, into collector: inout DifferenceCollector, path: String, depth: Int,
    secrecy: Secrecy)
}

extension IdentifiedList: ComparedArray {
  /// Compares two versions of a list by their structure: the subtrees they share are skipped
  /// by identity, so a change to one element of 100,000 compares one leaf of elements.
  fileprivate func collectDifferences(
    to other: Any, into collector: inout DifferenceCollector, path: String, depth: Int,
    secrecy: Secrecy
  ) {
    guard let other = other as? IdentifiedList<Element>, !other.isIdentical(to: self) else {
      return
    }
    let ranges = other.changedRanges(from: self)
    var old: [Element] = []
    old.reserveCapacity(ranges.old.count)
    forEach(in: ranges.old) { old.append($0) }
    var new: [Element] = []
    new.reserveCapacity(ranges.new.count)
    other.forEach(in: ranges.new) { new.append($0) }
    collector.collectMiddles(
      old[...], new[...], offset: ranges.old.lowerBound, path: path, depth: depth,
      secrecy: secrecy)
  }
}

extension Array: ComparedArray {
  fileprivate func collectDifferences(
    to other: Any, into collector: inout DifferenceCollector, path: String, depth: Int,
    secrecy: Secrecy
  ) {
    guard let other = other as? [Element] else { return }
    collector.collectArray(self, other, path: path, depth: depth, secrecy: secrecy)
  }
}

/// Which types hold an array, dictionary or set in their fields (looking a few levels deep),
/// learned from the first value of each type seen.
private final class CollectionHolders: @unchecked Sendable {
  // Safety: `known` is guarded by `lock`.
  static let shared = CollectionHolders()
  private let lock = Lock()
  private var known: [ObjectIdentifier: Bool] = [:]
  /// Types beyond this many are reflected every time.
  private static let capacity = 1_024

  func holdsCollections(_ value: Any) -> Bool {
    let key = ObjectIdentifier(type(of: value))
    if let answer = lock.withLock({ known[key] }) { return answer }
    let answer = Self.holds(value, depth: 0)
    lock.withLock {
      if known.count < Self.capacity { known[key] = answer }
    }
    return answer
  }

  private static func holds(_ value: Any, depth: Int) -> Bool {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .struct, .class, .tuple, .optional, .enum:
      guard depth < 4 else { return false }
      return mirror.children.contains { child in
        let style = Mirror(reflecting: child.value).displayStyle
        return style == .collection || style == .dictionary || style == .set
          || holds(child.value, depth: depth + 1)
      }
    default:
      return false
    }
  }
}
