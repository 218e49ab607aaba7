import ReactorKit

/// Renders a value as a JSON tree for the page's collapsible state view, by reflection, with
/// secrets redacted by field name: a secret-named value rendered whole is a leaf with the
/// redaction text, a secret-named container keeps its shape with its values redacted (see
/// ``ValueRenderer``). A `@Pulse` property shows as its property.
///
/// A node is `{"k": label, "t": type, "v": text}` for a leaf, or `{"k": label, "t": type,
/// "c": [children], "n": count}` for a struct, class, tuple, enum payload, collection or
/// dictionary. The tree is bounded in depth and in nodes; what doesn't fit renders as `…`.
struct StateTree {
  var renderer: ValueRenderer
  var isRedacted: (String) -> Bool
  var redactedText: String
  var maximumDepth = 16
  var maximumNodes = 5_000

  /// The JSON text of `value`'s tree.
  func json(_ value: Any) -> String {
    var writer = JSONWriter()
    var budget = maximumNodes
    write(value, label: nil, depth: 0, budget: &budget, secret: false, into: &writer)
    return writer.text
  }

  /// A leaf's text: its rendering, or inside a secret-named container its hidden form.
  private func leafText(_ value: Any, secret: Bool) -> String {
    secret ? renderer.renderSecretPart(value) : renderer.renderPart(value)
  }

  private func write(
    _ value: Any, label: String?, depth: Int, budget: inout Int, secret: Bool,
    into writer: inout JSONWriter
  ) {
    budget -= 1
    let mirror = Mirror(reflecting: value)
    writer.object { node in
      node.field("k", label)
      guard budget > 0, depth < maximumDepth else {
        node.field("t", Self.typeName(of: value))
        node.field("v", "…")
        return
      }
      switch mirror.displayStyle {
      case .optional:
        if let wrapped = mirror.children.first?.value {
          let inner = Mirror(reflecting: wrapped)
          if Self.hasChildren(inner) {
            node.field("t", Self.typeName(of: wrapped))
            writeChildren(
              inner, of: wrapped, depth: depth, budget: &budget, secret: secret, into: &node)
          } else {
            node.field("t", Self.typeName(of: wrapped))
            node.field("v", leafText(wrapped, secret: secret))
          }
        } else {
          node.field("t", Self.typeName(of: value))
          node.field("v", "nil")
        }
      case .struct, .class, .tuple, .collection, .dictionary, .set:
        node.field("t", Self.typeName(of: value))
        if mirror.children.isEmpty {
          node.field("v", leafText(value, secret: secret))
        } else {
          writeChildren(
            mirror, of: value, depth: depth, budget: &budget, secret: secret, into: &node)
        }
      case .enum:
        node.field("t", Self.typeName(of: value))
        if let payload = mirror.children.first, Self.hasChildren(Mirror(reflecting: payload.value))
        {
          let name = payload.label ?? "payload"
          node.field("case", name)
          if isRedacted(name) && renderer.redactsWholeValues {
            node.field("v", ".\(name)(\(redactedText))")
          } else {
            writeChildren(
              Mirror(reflecting: payload.value), of: payload.value, depth: depth, budget: &budget,
              secret: secret || isRedacted(name), into: &node)
          }
        } else {
          node.field("v", leafText(value, secret: secret))
        }
      default:
        node.field("t", Self.typeName(of: value))
        node.field("v", leafText(value, secret: secret))
      }
    }
  }

  private func writeChildren(
    _ mirror: Mirror, of value: Any, depth: Int, budget: inout Int, secret: Bool,
    into node: inout JSONWriter
  ) {
    let isDictionary = mirror.displayStyle == .dictionary
    let isSet = mirror.displayStyle == .set
    var children: [(label: String, value: Any, redacted: Bool)] = []
    for (index, child) in mirror.children.enumerated() {
      if isDictionary {
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { continue }
        let name = (pair[0].value as? String) ?? renderer.renderPart(pair[0].value)
        let key = secret ? leafText(pair[0].value, secret: true) : name
        children.append((key, pair[1].value, isRedacted(name)))
      } else if case (let label?, let value) = ValueRenderer.field(child.label, child.value) {
        children.append((label, value, isRedacted(label)))
      } else {
        children.append(("\(index)", child.value, false))
      }
    }
    if isDictionary { children.sort { $0.label < $1.label } }
    if isSet {
      children = children.map {
        ($0.label, $0.value, $0.redacted, leafText($0.value, secret: secret))
      }
      .sorted { $0.3 < $1.3 }.enumerated().map { ("\($0.offset)", $0.element.1, false) }
    }
    node.field("n", children.count)
    if isDictionary || isSet || mirror.displayStyle == .collection { node.field("s", "items") }
    node.key("c")
    node.array { list in
      for child in children {
        guard budget > 0 else {
          list.object { more in
            more.field("k", "…")
            more.field("t", "")
            more.field("v", "more not shown")
          }
          break
        }
        if child.redacted && renderer.redactsWhole(child.value) {
          budget -= 1
          list.object { leaf in
            leaf.field("k", child.label)
            leaf.field("t", Self.typeName(of: child.value))
            leaf.field("v", redactedText)
          }
        } else {
          write(
            child.value, label: child.label, depth: depth + 1, budget: &budget,
            secret: secret || child.redacted, into: &list)
        }
      }
    }
  }

  private static func hasChildren(_ mirror: Mirror) -> Bool {
    switch mirror.displayStyle {
    case .struct, .class, .tuple, .collection, .dictionary, .set: return !mirror.children.isEmpty
    default: return false
    }
  }

  static func typeName(of value: Any) -> String {
    let name = String(describing: type(of: value))
    return name.count > 80 ? String(name.prefix(79)) + "…" : name
  }
}
