/// A deterministic random number generator (SplitMix64) for reproducible property and fuzz
/// tests: the same seed always yields the same sequence.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// Creates a generator from `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// Scales stress and fuzz tests: `STRESS_ITERATIONS` in the environment multiplies the
/// default iteration counts (e.g. `STRESS_ITERATIONS=50 swift test --filter Stress` for a
/// local soak run). Defaults to 1.
public enum StressConfiguration {
  /// The multiplier from `STRESS_ITERATIONS`, at least 1.
  public static var multiplier: Int {
    guard let text = getenvString("STRESS_ITERATIONS"), let value = Int(text), value > 0 else {
      return 1
    }
    return value
  }

  /// `base` scaled by ``multiplier``.
  public static func iterations(_ base: Int) -> Int { base * multiplier }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

private func getenvString(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  return String(cString: value)
}
