import Dispatch
import Foundation

extension DispatchTimeInterval {
  /// The interval closest to `seconds`, in nanoseconds; negative values become zero and
  /// infinite ones `.never`.
  static func rxSeconds(_ seconds: Double) -> DispatchTimeInterval {
    guard seconds.isFinite else { return .never }
    guard seconds > 0 else { return .nanoseconds(0) }
    let nanoseconds = (seconds * 1_000_000_000).rounded()
    guard nanoseconds < Double(Int.max) else { return .never }
    return .nanoseconds(Int(nanoseconds))
  }

  /// Whether the interval is `.never`.
  var isNever: Bool {
    if case .never = self { return true }
    return false
  }
}

extension Date {
  /// The date `interval` after this one; `.never` gives `.distantFuture`.
  func adding(_ interval: DispatchTimeInterval) -> Date {
    interval.isNever ? .distantFuture : addingTimeInterval(interval.seconds)
  }
}
