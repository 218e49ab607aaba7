import ReactorKit

/// Renders recorded events as the JSON the page and the API read, with every secret redacted:
/// by field name (``LogRedaction``), by the source's own ``Redaction``s, and by
/// ``LogRedaction/redactValue``.
struct EventRenderer {
  let redaction: LogRedaction
  /// Where a store's previous state is found for the diff of an action recorded without it.
  var ring: EventRing?

  private var renderer: ValueRenderer {
    let redaction = self.redaction
    return ValueRenderer(
      isRedacted: { redaction.isRedacted($0) }, redactedText: redaction.replacement,
      redactsWholeValues: redaction.redactsWholeValues)
  }

  var tree: StateTree {
    let redaction = self.redaction
    return StateTree(
      renderer: renderer, isRedacted: { redaction.isRedacted($0) },
      redactedText: redaction.replacement)
  }

  /// An action or mutation as one line of text.
  func text(of value: Any) -> String {
    renderer.render(redaction.redactValue?(value) ?? value)
  }

  /// A state with the source's redactions and ``LogRedaction/redactValue`` applied.
  func prepared(_ state: Any, source: SourceInfo) -> Any {
    let redacted = source.redacted(state)
    return redaction.redactValue?(redacted) ?? redacted
  }

  /// The JSON tree of a state.
  func stateJSON(_ state: Any, source: SourceInfo) -> String {
    tree.json(prepared(state, source: source))
  }

  /// The event as one JSON object: `seq`, `source`, `sourceKind`, `kind`, `time` (ms since
  /// 1970), `action` (the action or mutation rendered), `note`, `diff` (changed paths with
  /// `old` and `new` renderings, at most 500) and `hasState` (the event changed a state, whose
  /// tree `GET /api/state?source=S&seq=N` renders while the event is in the ring).
  ///
  /// The state's tree is not part of the event: rendering it costs the size of the state
  /// (up to ``StateTree/maximumNodes`` nodes), so a page catching up on a full ring would
  /// pay it 10,000 times; the page asks for the one it shows.
  func json(_ event: RecordedEvent) -> String {
    var writer = JSONWriter()
    writer.object { json in
      json.field("seq", event.sequence)
      json.field("source", event.source.name)
      json.field("sourceKind", event.source.kindName)
      json.field("kind", event.kind.rawValue)
      json.field("time", (event.time * 1_000).rounded() / 1)
      if let value = event.value {
        json.field("action", text(of: value))
        json.field("type", StateTree.typeName(of: value))
      }
      if let note = event.note { json.field("note", note) }
      if let after = event.after {
        let preparedAfter = prepared(after, source: event.source)
        let before =
          event.before
          ?? (event.kind == .action ? ring?.stateBefore(event.sequence, source: event.source) : nil)
        if let before {
          let redaction = self.redaction
          let changes = valueDifferences(
            from: prepared(before, source: event.source), to: preparedAfter,
            render: renderer.renderPart, isRedacted: { redaction.isRedacted($0) },
            redactedText: redaction.replacement,
            renderSecret: redaction.redactsWholeValues ? nil : renderer.renderSecretPart,
            skipsEqualValues: true, identifiesElements: true)
          json.key("diff")
          json.array { list in
            for change in changes.prefix(500) {
              list.object { item in
                item.field("path", change.path.isEmpty ? "." : change.path)
                switch change.kind {
                case .changed(let old, let new):
                  item.field("old", old)
                  item.field("new", new)
                case .removed(let old), .missingElement(let old):
                  item.field("old", old)
                  item.field("new", nil)
                case .added(let new), .extraElement(let new):
                  item.field("old", nil)
                  item.field("new", new)
                }
              }
            }
          }
        }
        json.field("hasState", true)
      }
    }
    return writer.text
  }

  /// The stand-in for events a reader missed.
  static func gapJSON(missed: UInt64, before sequence: UInt64) -> String {
    var writer = JSONWriter()
    writer.object { json in
      json.field("kind", InspectorEventKind.gap.rawValue)
      json.field("missed", missed)
      json.field("seq", sequence)
    }
    return writer.text
  }
}
