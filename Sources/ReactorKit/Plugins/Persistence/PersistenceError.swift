/// Why a saved state could not be restored or saved. Every message names the file and the
/// problem.
///
/// Problems with the file's contents (every case but ``unreadable(path:reason:)``,
/// ``writeFailed(path:reason:)``, ``encodingFailed(path:reason:)`` and
/// ``unrestorable(path:reason:)``, which are about reading or saving, and
/// ``newerSchema(path:found:supported:)`` and ``migrationFailed(path:from:to:reason:)``, which
/// leave the file in place) mean the file is
/// moved aside before the error is reported, to `<file>.corrupt-<UTC timestamp>`, and
/// `movedTo` names the new path: the bad file is kept for inspection and never overwritten.
/// `movedTo` is `nil` when moving failed; the file is then left where it was.
public enum PersistenceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file exists but could not be read (permissions, an I/O error, not a regular file).
  /// It is left where it is.
  case unreadable(path: String, reason: String)
  /// The file is larger than ``LoadingLimits/maximumFileSize``.
  case tooLarge(path: String, size: Int, limit: Int, movedTo: String?)
  /// JSON arrays and objects nest deeper than ``LoadingLimits/maximumNestingDepth``.
  case nestingTooDeep(path: String, limit: Int, movedTo: String?)
  /// The file is empty, truncated, not JSON, or not a saved state.
  case corrupt(path: String, reason: String, movedTo: String?)
  /// The file was written by a newer (or unknown) version of the file format.
  case unsupportedFormatVersion(path: String, found: Int, supported: Int, movedTo: String?)
  /// The file holds a state of an older schema version than the app's, and the persistence
  /// has no ``StateMigration`` for each version in between.
  case incompatibleSchema(path: String, found: Int, expected: Int, movedTo: String?)
  /// The file was written by a newer version of the app (a higher schema version than the
  /// app's). It is left in place, and the persistence does not write over it.
  case newerSchema(path: String, found: Int, supported: Int)
  /// The ``StateMigration`` from schema version `from` to `to` threw, or the migrated state
  /// does not decode as the app's `State` (`from` is then the last step's). The file is left
  /// in place, unchanged, and the persistence does not write over it.
  case migrationFailed(path: String, from: Int, to: Int, reason: String)
  /// The file is a well-formed saved state, but the state in it does not decode as the app's
  /// `State` type.
  case undecodableState(path: String, reason: String, movedTo: String?)
  /// The state could not be encoded.
  case encodingFailed(path: String, reason: String)
  /// The state could not be written; the previous file, if any, is unchanged.
  case writeFailed(path: String, reason: String)
  /// The state was not written because ``StatePersistence/restore(initialState:recovery:)``
  /// would refuse the file: it would exceed the persistence's ``LoadingLimits`` (`reason`
  /// names the limit). The previous file, if any, is unchanged.
  case unrestorable(path: String, reason: String)

  /// The path of the state file.
  public var path: String {
    switch self {
    case .unreadable(let path, _), .tooLarge(let path, _, _, _), .nestingTooDeep(let path, _, _),
      .corrupt(let path, _, _), .unsupportedFormatVersion(let path, _, _, _),
      .incompatibleSchema(let path, _, _, _), .undecodableState(let path, _, _),
      .encodingFailed(let path, _), .writeFailed(let path, _), .unrestorable(let path, _),
      .newerSchema(let path, _, _), .migrationFailed(let path, _, _, _):
      return path
    }
  }

  /// Where the bad file was moved, if it was.
  public var movedTo: String? {
    switch self {
    case .tooLarge(_, _, _, let movedTo), .nestingTooDeep(_, _, let movedTo),
      .corrupt(_, _, let movedTo), .unsupportedFormatVersion(_, _, _, let movedTo),
      .incompatibleSchema(_, _, _, let movedTo), .undecodableState(_, _, let movedTo):
      return movedTo
    case .unreadable, .encodingFailed, .writeFailed, .unrestorable, .newerSchema,
      .migrationFailed:
      return nil
    }
  }

  public var description: String {
    let problem: String
    switch self {
    case .unreadable(let path, let reason):
      return "Cannot read the saved state \(path): \(reason)."
    case .encodingFailed(let path, let reason):
      return "Cannot encode the state to save it to \(path): \(reason)."
    case .writeFailed(let path, let reason):
      return "Cannot save the state to \(path): \(reason). The previous file is unchanged."
    case .unrestorable(let path, let reason):
      return
        "The state was not saved to \(path), because it could not be restored: \(reason). "
        + "The previous file is unchanged."
    case .newerSchema(let path, let found, let supported):
      return
        "The saved state \(path) has schema version \(found), newer than this app's "
        + "\(supported): it was written by a newer version of the app. It was left in place "
        + "and is not overwritten; update the app to open it."
    case .migrationFailed(let path, let from, let to, let reason):
      return
        "The saved state \(path) could not be migrated from schema version \(from) to \(to): "
        + "\(reason). It was left in place, unchanged, and is not overwritten."
    case .tooLarge(let path, let size, let limit, _):
      problem = "The saved state \(path) is too large (\(size) bytes; the limit is \(limit))."
    case .nestingTooDeep(let path, let limit, _):
      problem = "The saved state \(path) nests deeper than \(limit) levels."
    case .corrupt(let path, let reason, _):
      problem = "The saved state \(path) is corrupt: \(reason)."
    case .unsupportedFormatVersion(let path, let found, let supported, _):
      problem =
        "The saved state \(path) has file format version \(found); this version of ReactorKit "
        + "reads version \(supported)."
    case .incompatibleSchema(let path, let found, let expected, _):
      problem =
        "The saved state \(path) has schema version \(found); the app expects version "
        + "\(expected)."
    case .undecodableState(let path, let reason, _):
      problem = "The saved state \(path) does not decode: \(reason)."
    }
    if let movedTo {
      return problem + " It was moved to \(movedTo)."
    }
    return problem + " It was left in place."
  }

  /// The same error, recording where the file was moved.
  func moved(to newPath: String?) -> PersistenceError {
    switch self {
    case .tooLarge(let path, let size, let limit, _):
      return .tooLarge(path: path, size: size, limit: limit, movedTo: newPath)
    case .nestingTooDeep(let path, let limit, _):
      return .nestingTooDeep(path: path, limit: limit, movedTo: newPath)
    case .corrupt(let path, let reason, _):
      return .corrupt(path: path, reason: reason, movedTo: newPath)
    case .unsupportedFormatVersion(let path, let found, let supported, _):
      return .unsupportedFormatVersion(
        path: path, found: found, supported: supported, movedTo: newPath)
    case .incompatibleSchema(let path, let found, let expected, _):
      return .incompatibleSchema(path: path, found: found, expected: expected, movedTo: newPath)
    case .undecodableState(let path, let reason, _):
      return .undecodableState(path: path, reason: reason, movedTo: newPath)
    case .unreadable, .encodingFailed, .writeFailed, .unrestorable, .newerSchema,
      .migrationFailed:
      return self
    }
  }
}
