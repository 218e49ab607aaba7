import Foundation
import ReactorKitTesting
import XCTest

final class StressConfigurationTests: XCTestCase {
  func test_multiplierAndSeed_followTheEnvironment() {
    // given: what the environment of this run says (usually nothing: the defaults)
    let environment = ProcessInfo.processInfo.environment
    let iterations = environment["STRESS_ITERATIONS"].flatMap { Int($0) }.flatMap {
      $0 > 0 ? $0 : nil
    }
    let seed = environment["STRESS_SEED"].flatMap { UInt64($0) }
    // then
    XCTAssertEqual(StressConfiguration.multiplier, iterations ?? 1)
    XCTAssertEqual(StressConfiguration.seed, seed ?? 1)
    XCTAssertEqual(StressConfiguration.iterations(3), 3 * (iterations ?? 1))
    XCTAssertEqual(StressConfiguration.seeds(2).count, 2 * (iterations ?? 1))
  }
}
