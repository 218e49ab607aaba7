import Foundation

extension Event: Equatable where Element: Equatable {
  /// Two events are equal when they are the same kind with equal elements; two errors are
  /// equal when they bridge to `NSError`s with the same domain and code.
  public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.next(let left), .next(let right)): return left == right
    case (.completed, .completed): return true
    case (.error(let left), .error(let right)): return errorsEqual(left, right)
    default: return false
    }
  }
}

/// Whether two errors are equal the way test tools compare them: same `NSError` domain and
/// code.
public func errorsEqual(_ lhs: Swift.Error, _ rhs: Swift.Error) -> Bool {
  let left = lhs as NSError
  let right = rhs as NSError
  return left.domain == right.domain && left.code == right.code
}
