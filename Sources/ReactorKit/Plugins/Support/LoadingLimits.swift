/// Bounds on a file the library loads (a saved state, a recording), checked before any
/// decoding so that a hostile or damaged file costs bounded memory and time and can't crash
/// the app.
public struct LoadingLimits: Sendable, Equatable {
  /// The largest file accepted, in bytes.
  public var maximumFileSize: Int
  /// The deepest nesting of JSON arrays and objects accepted, counted from the outermost
  /// level (a recording line's envelope counts as one level).
  public var maximumNestingDepth: Int

  /// Creates limits.
  ///
  /// - Parameters:
  ///   - maximumFileSize: The largest file accepted, in bytes; 32 MiB by default.
  ///   - maximumNestingDepth: The deepest JSON nesting accepted; 64 by default.
  public init(maximumFileSize: Int = 32 * 1024 * 1024, maximumNestingDepth: Int = 64) {
    self.maximumFileSize = maximumFileSize
    self.maximumNestingDepth = maximumNestingDepth
  }

  /// 32 MiB and 64 levels.
  public static let `default` = LoadingLimits()
}
