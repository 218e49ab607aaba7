import Dispatch
import Foundation
import ReactorKitStreams

/// How far an `advance(by:)` was asked to move, in whole nanoseconds: a
/// `DispatchTimeInterval` exactly, a `Duration` to the nearest nanosecond (a `Duration` made
/// from a `Double`, `.seconds(0.3)`, is a few attoseconds off; a tick is never that small).
struct AdvanceLength {
  /// The length in whole nanoseconds; `nil` when it is infinite (`.never`) or beyond
  /// `Int64` nanoseconds (about 292 years).
  let nanoseconds: Int64?
  /// The length in seconds, for lengths `nanoseconds` cannot hold.
  let seconds: Double

  init(_ interval: DispatchTimeInterval) {
    seconds = interval.seconds
    func scaled(_ value: Int, by factor: Int) -> Int64? {
      let (product, overflow) = value.multipliedReportingOverflow(by: factor)
      return overflow ? nil : Int64(product)
    }
    switch interval {
    case .seconds(let value): nanoseconds = scaled(value, by: 1_000_000_000)
    case .milliseconds(let value): nanoseconds = scaled(value, by: 1_000_000)
    case .microseconds(let value): nanoseconds = scaled(value, by: 1_000)
    case .nanoseconds(let value): nanoseconds = Int64(value)
    case .never: nanoseconds = nil
    @unknown default: nanoseconds = nil
    }
  }

  init(_ duration: Duration) {
    let (wholeSeconds, attoseconds) = duration.components
    seconds = Double(wholeSeconds) + Double(attoseconds) / 1e18
    let (scaled, overflow) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000_000)
    let nearest = (attoseconds + 500_000_000) / 1_000_000_000
    let (sum, sumOverflow) = scaled.addingReportingOverflow(nearest)
    nanoseconds = overflow || sumOverflow ? nil : sum
  }
}

/// The check that `advance(by:)` of a ``TestScheduler`` or a ``TestClock`` moves a whole
/// number of ticks: the time moves in whole ticks, so a part of one is rounded, and the test
/// is told.
enum PartialTick {
  /// Fails the test when `length` is not a whole number of ticks of `resolution` seconds,
  /// saying how many ticks `owner`'s `advance(by:)` moved instead. Negative and infinite
  /// lengths are left to the caller.
  static func report(
    of owner: String, length: AdvanceLength, resolution: Double, moved: TestTime,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    guard length.seconds >= 0, length.seconds.isFinite,
      isPartial(length, resolution: resolution)
    else { return }
    let ticks = length.seconds / resolution
    TestStoreFailure(
      message: "\(owner).advance(by: \(secondsText(length))) is \(plural(ticks, "tick")) "
        + "(1 tick = \(plural(resolution, "second"))) and moved \(plural(moved, "tick")): the "
        + "time moves in whole ticks. Give the scheduler a finer resolution, such as "
        + "TestScheduler(initialClock: 0, resolution: \(suggestedResolution(for: length))).",
      fileID: fileID, filePath: filePath, line: line, column: column
    ).reportToTestFramework()
  }

  /// Whether `length` is not a whole number of ticks: exactly, in nanoseconds, when a tick
  /// is a whole number of nanoseconds (every resolution a test gives: 1, 0.1, 0.001…);
  /// otherwise within a few units in the last place of the quotient.
  static func isPartial(_ length: AdvanceLength, resolution: Double) -> Bool {
    let tick = resolution * 1e9
    let isWholeNanoseconds =
      tick >= 1 && tick < 9e18 && (tick - tick.rounded()).magnitude <= 4 * tick.ulp
    if isWholeNanoseconds, let nanoseconds = length.nanoseconds {
      return nanoseconds % Int64(tick.rounded()) != 0
    }
    let exact = length.seconds / resolution
    return exact.isFinite && (exact - exact.rounded()).magnitude > 8 * exact.ulp
  }

  /// `value` with as many digits as it needs, up to 15 significant ones, without an
  /// exponent for small values (`0.00001`, not `1e-05`).
  private static func number(_ value: Double) -> String {
    let text = String(format: "%.15g", value)
    guard text.contains("e-") else { return text }
    var fixed = String(format: "%.18f", value)
    while fixed.last == "0" { fixed.removeLast() }
    return fixed
  }

  /// Whole nanoseconds as seconds, exactly: `1.000000002`, `0.3`, `2`.
  private static func decimalSeconds(_ nanoseconds: Int64) -> String {
    let whole = nanoseconds / 1_000_000_000
    var fraction = String(nanoseconds % 1_000_000_000)
    fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
    while fraction.last == "0" { fraction.removeLast() }
    return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
  }

  private static func plural(_ value: Double, _ noun: String) -> String {
    "\(number(value)) \(noun)\(value == 1 ? "" : "s")"
  }

  private static func plural(_ value: TestTime, _ noun: String) -> String {
    "\(value) \(noun)\(value == 1 ? "" : "s")"
  }

  /// The length in seconds, exactly when it is whole nanoseconds ("1.000000002 seconds").
  private static func secondsText(_ length: AdvanceLength) -> String {
    guard let nanoseconds = length.nanoseconds else {
      return plural(length.seconds, "second")
    }
    let text = decimalSeconds(nanoseconds)
    return "\(text) second\(text == "1" ? "" : "s")"
  }

  /// A resolution that divides `length`: a millisecond, or the largest power of ten of a
  /// second below it that divides the length.
  private static func suggestedResolution(for length: AdvanceLength) -> String {
    guard let nanoseconds = length.nanoseconds else {
      return "0.001"
    }
    var step: Int64 = 1_000_000
    while step > 1 && nanoseconds % step != 0 { step /= 10 }
    return decimalSeconds(step)
  }
}
