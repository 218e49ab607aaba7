import Foundation
import ReactorKitReSwift
import XCTest

/// ReSwift's PerformanceTests as correctness checks with a generous time bound (wall-clock
/// numbers come from the benchmark executable, not from tests).
final class StorePerformanceTests: XCTestCase {
  func test_threeThousandSubscribers_receiveEveryOfAHundredStates() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscribers = (0..<3000).map { _ in Counting() }
    let start = Date()
    for subscriber in subscribers { store.subscribe(subscriber) { $0.select(\.value) } }

    // when
    for _ in 0..<100 { store.dispatch(Increment()) }

    // then
    XCTAssertTrue(subscribers.allSatisfy { $0.count == 101 && $0.last == 100 })
    XCTAssertLessThan(Date().timeIntervalSince(start), 30)
  }

  func test_subscribingThreeThousandSubscribers_keepsOneSubscriptionEach() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscribers = (0..<3000).map { _ in Counting() }

    // when
    for subscriber in subscribers { store.subscribe(subscriber) { $0.select(\.value) } }
    for subscriber in subscribers { store.subscribe(subscriber) { $0.select(\.value) } }

    // then
    XCTAssertTrue(subscribers.allSatisfy { $0.count == 2 })
    for subscriber in subscribers { store.unsubscribe(subscriber) }
    store.dispatch(Increment())
    XCTAssertTrue(subscribers.allSatisfy { $0.count == 2 })
  }
}

/// Counts deliveries without recording them.
private final class Counting: StoreSubscriber {
  private(set) var count = 0
  private(set) var last: Int?
  func newState(state: Int?) {
    count += 1
    last = state
  }
}
