import ReactorKitStreams

/// Scales stress and fuzz tests from the environment, for local soak runs
/// (`scripts/soak.sh`):
///
/// - `STRESS_ITERATIONS` multiplies the default iteration counts (e.g.
///   `STRESS_ITERATIONS=50 swift test --filter Stress`). Defaults to 1.
/// - `STRESS_SEED` moves the seeds that fuzz tests draw from: a test that runs `n` seeds runs
///   ``seeds(_:)``, `STRESS_SEED ... STRESS_SEED + n × multiplier - 1`, and stress tests derive
///   their per-thread generators from ``seed``. Defaults to 1, the seeds CI runs. A fuzz
///   failure names its seed; rerun it with `STRESS_SEED=<seed> STRESS_ITERATIONS=1`.
///
/// The package's own test support, not API (`package`).
package enum StressConfiguration {
  /// The multiplier from `STRESS_ITERATIONS`, at least 1.
  package static var multiplier: Int {
    guard let text = ProcessEnvironment.value(of: "STRESS_ITERATIONS"), let value = Int(text),
      value > 0
    else {
      return 1
    }
    return value
  }

  /// `base` scaled by ``multiplier``.
  package static func iterations(_ base: Int) -> Int { base * multiplier }

  /// The first seed, from `STRESS_SEED` (a decimal `UInt64`); 1 when it is unset or invalid.
  package static var seed: UInt64 {
    guard let text = ProcessEnvironment.value(of: "STRESS_SEED"), let value = UInt64(text) else {
      return 1
    }
    return value
  }

  /// ``iterations(_:)`` consecutive seeds starting at ``seed`` (moved down if they would pass
  /// `UInt64.max`), one per fuzz round.
  package static func seeds(_ base: Int) -> ClosedRange<UInt64> {
    let count = UInt64(max(iterations(base), 1))
    let first = min(seed, UInt64.max - (count - 1))
    return first...(first + (count - 1))
  }
}
