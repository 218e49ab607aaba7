/// Bounds on a file the library loads (a saved state, a recording), checked before any
/// decoding so that a hostile or damaged file costs bounded memory and time and can't crash
/// the app.
///
/// The same limits are checked when writing: ``StatePersistence`` refuses to save a state, and
/// ``ActionRecorder`` to record an action, that would make a file these limits reject
/// (``PersistenceError/unrestorable(path:reason:)``,
/// ``RecordingError/unreplayable(type:reason:)``). So what is written can always be read back
/// with the same limits. Nesting counts JSON levels, and Swift's synthesized `Codable` uses two
/// for each enum case with a payload (`{"case":{"_0":…}}`): a state nested 30 enum levels deep
/// already needs about 64.
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
