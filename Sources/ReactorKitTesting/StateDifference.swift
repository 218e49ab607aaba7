/// Describes where two values differ, one line per differing leaf, using reflection.
///
/// Each line names the path from the root, key-path style, and both values:
/// `\.user.name: expected "Ann", actual "Bob"`. Structs, classes and tuples are compared
/// field by field, enums case by case and then by payload, optionals by presence and then by
/// value, arrays element by element, dictionaries key by key, sets element by element; other
/// values by their descriptions.
///
/// - Returns: The lines, empty when reflection shows no difference.
func describeDifferences(expected: Any, actual: Any) -> [String] {
  var lines: [String] = []
  collectDifferences(expected, actual, path: "", depth: 0, into: &lines)
  return lines
}

/// A readable rendering of a value for failure messages: strings quoted, enum cases with
/// their type name, everything else as described.
func renderValue(_ value: Any) -> String {
  switch value {
  case let string as String: return String(reflecting: string)
  case let string as Substring: return String(reflecting: string)
  case let character as Character: return String(reflecting: character)
  default: break
  }
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum {
    return "\(type(of: value)).\(value)"
  }
  if mirror.displayStyle == .optional {
    guard let wrapped = mirror.children.first?.value else { return "nil" }
    return renderValue(wrapped)
  }
  return String(describing: value)
}

private let maximumDepth = 32

private func collectDifferences(
  _ expected: Any, _ actual: Any, path: String, depth: Int, into lines: inout [String]
) {
  let expectedMirror = Mirror(reflecting: expected)
  let actualMirror = Mirror(reflecting: actual)
  func leaf() {
    let expectedText = renderValue(expected)
    let actualText = renderValue(actual)
    if expectedText != actualText || type(of: expected) != type(of: actual) {
      lines.append("\\\(path.isEmpty ? "." : path): expected \(expectedText), actual \(actualText)")
    }
  }
  guard depth < maximumDepth, type(of: expected) == type(of: actual),
    let style = expectedMirror.displayStyle, style == actualMirror.displayStyle
  else {
    leaf()
    return
  }
  switch style {
  case .optional:
    switch (expectedMirror.children.first?.value, actualMirror.children.first?.value) {
    case (nil, nil):
      return
    case (let expectedValue?, let actualValue?):
      collectDifferences(expectedValue, actualValue, path: path, depth: depth + 1, into: &lines)
    default:
      leaf()
    }
  case .collection:
    let expectedElements = expectedMirror.children.map(\.value)
    let actualElements = actualMirror.children.map(\.value)
    for index in 0..<max(expectedElements.count, actualElements.count) {
      let elementPath = "\(path)[\(index)]"
      if index >= actualElements.count {
        lines.append(
          "\\\(elementPath): expected \(renderValue(expectedElements[index])), actual (none)")
      } else if index >= expectedElements.count {
        lines.append(
          "\\\(elementPath): expected (none), actual \(renderValue(actualElements[index]))")
      } else {
        collectDifferences(
          expectedElements[index], actualElements[index], path: elementPath, depth: depth + 1,
          into: &lines)
      }
    }
  case .dictionary:
    let expectedEntries = dictionaryEntries(expectedMirror)
    let actualEntries = dictionaryEntries(actualMirror)
    let keys = Set(expectedEntries.keys).union(actualEntries.keys).sorted()
    for key in keys {
      let entryPath = "\(path)[\(key)]"
      switch (expectedEntries[key], actualEntries[key]) {
      case (let expectedValue?, let actualValue?):
        collectDifferences(
          expectedValue, actualValue, path: entryPath, depth: depth + 1, into: &lines)
      case (let expectedValue?, nil):
        lines.append("\\\(entryPath): expected \(renderValue(expectedValue)), actual (none)")
      case (nil, let actualValue?):
        lines.append("\\\(entryPath): expected (none), actual \(renderValue(actualValue))")
      case (nil, nil):
        break
      }
    }
  case .set:
    let expectedElements = Set(expectedMirror.children.map { renderValue($0.value) })
    let actualElements = Set(actualMirror.children.map { renderValue($0.value) })
    for missing in expectedElements.subtracting(actualElements).sorted() {
      lines.append(
        "\\\(path.isEmpty ? "." : path): expected to contain \(missing), but it does not")
    }
    for extra in actualElements.subtracting(expectedElements).sorted() {
      lines.append("\\\(path.isEmpty ? "." : path): contains \(extra), which was not expected")
    }
  case .enum:
    let expectedCase = expectedMirror.children.first
    let actualCase = actualMirror.children.first
    guard let expectedCase, let actualCase, expectedCase.label == actualCase.label else {
      leaf()
      return
    }
    collectDifferences(
      expectedCase.value, actualCase.value, path: "\(path).\(expectedCase.label ?? "payload")",
      depth: depth + 1, into: &lines)
  case .struct, .class, .tuple:
    let expectedChildren = Array(expectedMirror.children)
    let actualChildren = Array(actualMirror.children)
    guard !expectedChildren.isEmpty, expectedChildren.count == actualChildren.count else {
      leaf()
      return
    }
    let before = lines.count
    for (index, (expectedChild, actualChild)) in zip(expectedChildren, actualChildren).enumerated()
    {
      let label = expectedChild.label.map { $0.hasPrefix(".") ? String($0.dropFirst()) : $0 }
      collectDifferences(
        expectedChild.value, actualChild.value, path: "\(path).\(label ?? "\(index)")",
        depth: depth + 1, into: &lines)
    }
    if lines.count == before && style == .class {
      leaf()
    }
  default:
    leaf()
  }
}

private func dictionaryEntries(_ mirror: Mirror) -> [String: Any] {
  var entries: [String: Any] = [:]
  for child in mirror.children {
    let pair = Array(Mirror(reflecting: child.value).children)
    guard pair.count == 2 else { continue }
    entries[renderValue(pair[0].value)] = pair[1].value
  }
  return entries
}
