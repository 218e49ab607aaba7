/// Which events a ``LoggingPlugin`` writes.
///
/// Sources and kinds are checked before an event is rendered, so a filtered-out event costs
/// almost nothing (no reflection, no state diff); `isIncluded` sees the rendered event, before
/// it is numbered (filtered-out events take no sequence number).
public struct LogFilter: Sendable {
  /// The sources to write; `nil` writes every source.
  public var sources: Set<String>?
  /// The sources never to write.
  public var excludedSources: Set<String>
  /// The kinds to write.
  public var kinds: Set<LogEvent.Kind>
  /// A last check on each finished event; `nil` accepts all.
  public var isIncluded: (@Sendable (LogEvent) -> Bool)?

  /// Creates a filter; the defaults write everything.
  public init(
    sources: Set<String>? = nil, excludedSources: Set<String> = [],
    kinds: Set<LogEvent.Kind> = Set(LogEvent.Kind.allCases),
    isIncluded: (@Sendable (LogEvent) -> Bool)? = nil
  ) {
    self.sources = sources
    self.excludedSources = excludedSources
    self.kinds = kinds
    self.isIncluded = isIncluded
  }

  /// Writes every event.
  public static let all = LogFilter()

  /// Whether events of `kind` from `source` are written (before ``isIncluded``).
  public func includes(source: String, kind: LogEvent.Kind) -> Bool {
    kinds.contains(kind) && !excludedSources.contains(source)
      && (sources?.contains(source) ?? true)
  }
}
