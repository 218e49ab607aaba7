import ReactorKit

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
  valueDifferences(from: expected, to: actual, render: renderValue).map { difference in
    let path = "\\" + (difference.path.isEmpty ? "." : difference.path)
    switch difference.kind {
    case .changed(let old, let new): return "\(path): expected \(old), actual \(new)"
    case .removed(let old): return "\(path): expected \(old), actual (none)"
    case .added(let new): return "\(path): expected (none), actual \(new)"
    case .missingElement(let element):
      return "\(path): expected to contain \(element), but it does not"
    case .extraElement(let element): return "\(path): contains \(element), which was not expected"
    }
  }
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
