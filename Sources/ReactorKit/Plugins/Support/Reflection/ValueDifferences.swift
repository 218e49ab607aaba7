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
/// - Parameters:
///   - old: The earlier value.
///   - new: The later value.
///   - render: Renders a leaf value; two leaves differ when their renderings (or types) do.
///   - isRedacted: Whether a field, enum case or dictionary key of this name is secret: its
///     differences are still reported, with `redactedText` in place of both values.
///   - redactedText: What stands in for a redacted value.
///   - maximumDepth: How deep to descend before comparing renderings.
///   - skipsEqualValues: Whether to skip, without reflection, any part whose values are
///     `Equatable` and equal (or the same object): much faster for large values with small
///     changes, but a type whose `==` ignores some fields hides their differences.
/// - Returns: The differences; empty when reflection shows none.
package func valueDifferences(
  from old: Any, to new: Any, render: (Any) -> String,
  isRedacted: (String) -> Bool = { _ in false }, redactedText: String = "<redacted>",
  maximumDepth: Int = 32, skipsEqualValues: Bool = false
) -> [ValueDifference] {
  cappedValueDifferences(
    from: old, to: new, render: render, isRedacted: isRedacted, redactedText: redactedText,
    maximumDepth: maximumDepth, skipsEqualValues: skipsEqualValues, maximumCount: .max
  ).differences
}

/// The first `maximumCount` places where `old` and `new` differ (see
/// ``valueDifferences(from:to:render:isRedacted:redactedText:maximumDepth:skipsEqualValues:)``),
/// and how many more differ.
///
/// Past the cap nothing is rendered into a difference and nothing is descended into: each
/// further differing part (a field, an element, an entry) counts once in `omitted`, found by
/// `==` where the values are `Equatable` and by comparing renderings otherwise.
///
/// - Complexity: Still linear in the size of the parts that differ, but without building a
///   text per difference past the cap.
package func cappedValueDifferences(
  from old: Any, to new: Any, render: (Any) -> String,
  isRedacted: (String) -> Bool = { _ in false }, redactedText: String = "<redacted>",
  maximumDepth: Int = 32, skipsEqualValues: Bool = false, maximumCount: Int
) -> (differences: [ValueDifference], omitted: Int) {
  withoutActuallyEscaping(render) { render in
    withoutActuallyEscaping(isRedacted) { isRedacted in
      var collector = DifferenceCollector(
        render: render, isRedacted: isRedacted, redactedText: redactedText,
        maximumDepth: maximumDepth, skipsEqualValues: skipsEqualValues,
        maximumCount: max(0, maximumCount))
      collector.collect(old, new, path: "", depth: 0, redacted: false)
      return (collector.differences, collector.omitted)
    }
  }
}

private struct DifferenceCollector {
  let render: (Any) -> String
  let isRedacted: (String) -> Bool
  let redactedText: String
  let maximumDepth: Int
  let skipsEqualValues: Bool
  let maximumCount: Int
  var differences: [ValueDifference] = []
  /// Differences found past `maximumCount`, counted but not rendered.
  var omitted = 0

  private var isFull: Bool { differences.count >= maximumCount }

  private func text(_ value: Any, redacted: Bool) -> String {
    redacted ? redactedText : render(value)
  }

  private mutating func append(_ path: String, _ kind: ValueDifference.Kind) {
    if isFull {
      omitted += 1
    } else {
      differences.append(ValueDifference(path: path, kind: kind))
    }
  }

  /// Past the cap: counts `old` and `new` once if they differ, without descending.
  private mutating func count(_ old: Any, _ new: Any) {
    if skipsEqualValues && areKnownEqual(old, new) { return }
    if type(of: old) != type(of: new) || !(old is any Equatable) {
      if type(of: old) == type(of: new) && render(old) == render(new) { return }
    } else if areKnownEqual(old, new) {
      return
    }
    omitted += 1
  }

  private mutating func leaf(_ old: Any, _ new: Any, path: String, redacted: Bool) {
    let oldText = render(old)
    let newText = render(new)
    guard oldText != newText || type(of: old) != type(of: new) else { return }
    if redacted {
      append(path, .changed(old: redactedText, new: redactedText))
    } else {
      append(path, .changed(old: oldText, new: newText))
    }
  }

  mutating func collect(_ old: Any, _ new: Any, path: String, depth: Int, redacted: Bool) {
    if isFull { return count(old, new) }
    if skipsEqualValues && areKnownEqual(old, new) { return }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    guard depth < maximumDepth, type(of: old) == type(of: new),
      let style = oldMirror.displayStyle, style == newMirror.displayStyle
    else {
      leaf(old, new, path: path, redacted: redacted)
      return
    }
    switch style {
    case .optional:
      switch (oldMirror.children.first?.value, newMirror.children.first?.value) {
      case (nil, nil):
        return
      case (let oldValue?, let newValue?):
        collect(oldValue, newValue, path: path, depth: depth + 1, redacted: redacted)
      default:
        leaf(old, new, path: path, redacted: redacted)
      }
    case .collection:
      collectElements(oldMirror, newMirror, path: path, depth: depth, redacted: redacted)
    case .dictionary:
      collectEntries(oldMirror, newMirror, path: path, depth: depth, redacted: redacted)
    case .set:
      let oldElements = Set(oldMirror.children.map { render($0.value) })
      let newElements = Set(newMirror.children.map { render($0.value) })
      for missing in oldElements.subtracting(newElements).sorted() {
        append(path, .missingElement(redacted ? redactedText : missing))
      }
      for extra in newElements.subtracting(oldElements).sorted() {
        append(path, .extraElement(redacted ? redactedText : extra))
      }
    case .enum:
      let oldCase = oldMirror.children.first
      let newCase = newMirror.children.first
      guard let oldCase, let newCase, oldCase.label == newCase.label else {
        leaf(old, new, path: path, redacted: redacted || isRedactedCase(old, new))
        return
      }
      let label = oldCase.label ?? "payload"
      collect(
        oldCase.value, newCase.value, path: "\(path).\(label)", depth: depth + 1,
        redacted: redacted || isRedacted(label))
    case .struct, .class, .tuple:
      let oldChildren = Array(oldMirror.children)
      let newChildren = Array(newMirror.children)
      guard !oldChildren.isEmpty, oldChildren.count == newChildren.count else {
        leaf(old, new, path: path, redacted: redacted)
        return
      }
      let before = differences.count
      for (index, (oldChild, newChild)) in zip(oldChildren, newChildren).enumerated() {
        let label = oldChild.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
        collect(
          oldChild.value, newChild.value, path: "\(path).\(label ?? "\(index)")",
          depth: depth + 1, redacted: redacted || label.map(isRedacted) == true)
      }
      if differences.count == before && style == .class {
        leaf(old, new, path: path, redacted: redacted)
      }
    default:
      leaf(old, new, path: path, redacted: redacted)
    }
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
    _ oldMirror: Mirror, _ newMirror: Mirror, path: String, depth: Int, redacted: Bool
  ) {
    let oldElements = oldMirror.children.map(\.value)
    let newElements = newMirror.children.map(\.value)
    for index in 0..<max(oldElements.count, newElements.count) {
      if isFull && (index >= newElements.count || index >= oldElements.count) {
        // Past the cap, an added or removed element is counted without rendering it.
        omitted += 1
        continue
      }
      let elementPath = "\(path)[\(index)]"
      if index >= newElements.count {
        append(elementPath, .removed(old: text(oldElements[index], redacted: redacted)))
      } else if index >= oldElements.count {
        append(elementPath, .added(new: text(newElements[index], redacted: redacted)))
      } else {
        collect(
          oldElements[index], newElements[index], path: elementPath, depth: depth + 1,
          redacted: redacted)
      }
    }
  }

  private mutating func collectEntries(
    _ oldMirror: Mirror, _ newMirror: Mirror, path: String, depth: Int, redacted: Bool
  ) {
    let oldEntries = dictionaryEntries(oldMirror)
    let newEntries = dictionaryEntries(newMirror)
    let keys = Set(oldEntries.keys).union(newEntries.keys).sorted()
    for key in keys {
      let entryPath = "\(path)[\(key)]"
      let entryRedacted =
        redacted || isRedacted(oldEntries[key]?.name ?? newEntries[key]?.name ?? key)
      switch (oldEntries[key]?.value, newEntries[key]?.value) {
      case (let oldValue?, let newValue?):
        collect(oldValue, newValue, path: entryPath, depth: depth + 1, redacted: entryRedacted)
      case (let oldValue?, nil):
        append(entryPath, .removed(old: text(oldValue, redacted: entryRedacted)))
      case (nil, let newValue?):
        append(entryPath, .added(new: text(newValue, redacted: entryRedacted)))
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
