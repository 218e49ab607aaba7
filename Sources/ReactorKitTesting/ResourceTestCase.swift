import Foundation
import ReactorKit
import ReactorKitStreams
import XCTest

/// A test case that fails when a test leaves stream resources alive.
///
/// Records `Resources.total` (the live observables, sinks and subject subscriptions) before
/// each test and checks it is back at the start value after the test's own objects are gone.
/// Tests create everything inside the test method so it is freed before `tearDown`.
///
/// ```swift
/// final class CounterReactorTests: ResourceTestCase {
///   func test_increase_addsOne() {
///     let reactor = CounterReactor()
///     reactor.action.onNext(.increase)
///     XCTAssertEqual(reactor.currentState.count, 1)
///   }  // fails here if the reactor left a subscription alive
/// }
/// ```
open class ResourceTestCase: XCTestCase {
  private var startTotal = 0

  /// How long `tearDown` waits for other threads to release their last references.
  open var resourceSettleTimeout: TimeInterval { 2 }

  /// Records the live resource count the test starts from.
  open override func setUp() {
    super.setUp()
    startTotal = Resources.total
  }

  /// Waits up to ``resourceSettleTimeout`` for the live resource count to return to its start
  /// value, then fails the test if it has not.
  ///
  /// The streams of reactors the test freed are released first, on Linux too, where the
  /// library's sweeps may not look at a reactor freed long after its last use.
  open override func tearDown() {
    // Other threads may still be releasing their last references; give them a moment.
    let deadline = Date().addingTimeInterval(resourceSettleTimeout)
    ReactorKitLibrary.releaseFreedReactors()
    while Resources.total != startTotal && Date() < deadline {
      RunLoop.current.run(until: Date().addingTimeInterval(0.01))
      ReactorKitLibrary.releaseFreedReactors()
    }
    XCTAssertEqual(
      Resources.total, startTotal, "Stream resources leaked: \(Resources.total - startTotal)")
    super.tearDown()
  }
}
