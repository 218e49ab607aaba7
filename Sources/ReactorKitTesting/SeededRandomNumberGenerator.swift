/// A deterministic random number generator (SplitMix64) for reproducible property and fuzz
/// tests: the same seed always yields the same sequence.
///
/// The package's own test support, not API (`package`): the guide's fuzz tests bring their
/// own generator.
package struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from `seed`.
  package init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

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
    guard let text = getenvString("STRESS_ITERATIONS"), let value = Int(text), value > 0 else {
      return 1
    }
    return value
  }

  /// `base` scaled by ``multiplier``.
  package static func iterations(_ base: Int) -> Int { base * multiplier }

  /// The first seed, from `STRESS_SEED` (a decimal `UInt64`); 1 when it is unset or invalid.
  package static var seed: UInt64 {
    guard let text = getenvString("STRESS_SEED"), let value = UInt64(text) else { return 1 }
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

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private func getenvString(_ name: String) -> String? {
  guard let value = unsafe getenv(name) else { return nil }
  return unsafe String(cString: value)
}
