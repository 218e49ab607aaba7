/// Which events a ``LoggingPlugin`` writes.
///
/// Sources, kinds and ``actions`` are checked on the producing thread before anything is
/// copied or rendered, so a filtered-out event costs almost nothing (no reflection, no state
/// diff); `isIncluded` sees the rendered event, on the plugin's queue, before it is numbered
/// (filtered-out events take no sequence number).
public struct LogFilter: Sendable {
  /// The sources to write; `nil` writes every source.
  public var sources: Set<String>?
  /// The sources never to write.
  public var excludedSources: Set<String>
  /// The kinds to write.
  public var kinds: Set<LogEvent.Kind>
  /// A last check on each finished event; `nil` accepts all. It sees the rendered event, so
  /// it runs on the plugin's queue after rendering; to skip events cheaply, use the sources,
  /// the kinds or ``actions``.
  public var isIncluded: (@Sendable (LogEvent) -> Bool)?
  /// Which store and reactor actions to log, with the state changes they cause; asked on the
  /// producing thread before anything is rendered or copied, so a rejected action costs
  /// almost nothing. `nil` accepts all. (Mutations are not asked.)
  public var actions: (@Sendable (Any) -> Bool)?

  /// Creates a filter; the defaults write everything.
  public init(
    sources: Set<String>? = nil, excludedSources: Set<String> = [],
    kinds: Set<LogEvent.Kind> = Set(LogEvent.Kind.allCases),
    isIncluded: (@Sendable (LogEvent) -> Bool)? = nil,
    actions: (@Sendable (Any) -> Bool)? = nil
  ) {
    self.sources = sources
    self.excludedSources = excludedSources
    self.kinds = kinds
    self.isIncluded = isIncluded
    self.actions = actions
  }

  /// Writes every event.
  public static let all = LogFilter()

  /// Whether events of `kind` from `source` are written (before ``isIncluded``).
  public func includes(source: String, kind: LogEvent.Kind) -> Bool {
    kinds.contains(kind) && !excludedSources.contains(source)
      && (sources?.contains(source) ?? true)
  }

  /// Whether `action` passes ``actions``.
  func includesAction(_ action: Any) -> Bool {
    actions?(action) ?? true
  }
}
