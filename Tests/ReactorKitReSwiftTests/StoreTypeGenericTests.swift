import Foundation
import XCTest

@testable import ReactorKitReSwift

/// A nested state for selections two levels deep.
private struct Nested: Equatable {
  struct Inner: Equatable { var b = 0 }
  var a = Inner()
  var other = 0
}

private struct SetB: Action { var b: Int }
private struct SetOther: Action { var other: Int }

private func nestedReducer(action: Action, state: Nested?) -> Nested {
  var state = state ?? Nested()
  switch action {
  case let action as SetB: state.a.b = action.b
  case let action as SetOther: state.other = action.other
  default: break
  }
  return state
}

/// Subscribes through the protocol only, as code generic over stores does.
private func subscribeSelectingB<S: StoreType>(_ store: S, _ subscriber: Recorder<Int>)
where S.State == Nested {
  store.subscribe(subscriber) { $0.select(\.a.b) }
}

/// Subscribing through a generic `StoreType` and re-subscribing many subscribers (issue 31).
final class StoreTypeGenericTests: XCTestCase {
  func test_equatableSelection_throughGenericStoreType_skipsRepeats() {
    // given
    let store = Store(reducer: nestedReducer, state: Nested())
    let subscriber = Recorder<Int>()
    subscribeSelectingB(store, subscriber)
    // when: a change elsewhere in the state, then one to the selection
    store.dispatch(SetOther(other: 1))
    store.dispatch(SetB(b: 2))
    // then: as in ReSwift, the equal selection is not delivered again
    XCTAssertEqual(subscriber.received, [0, 2])
  }

  func test_equatableSelection_throughGenericStoreType_withoutAutomaticSkipping_deliversAll() {
    // given
    let store = Store(reducer: nestedReducer, state: Nested(), automaticallySkipsRepeats: false)
    let subscriber = Recorder<Int>()
    subscribeSelectingB(store, subscriber)
    // when
    store.dispatch(SetOther(other: 1))
    // then
    XCTAssertEqual(subscriber.received, [0, 0])
  }

  func test_resubscribingThreeThousandSubscribers_takesAboutAsLongAsSubscribingThem() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    let subscribers = (0..<3000).map { _ in Recorder<Int?>() }
    // when
    let first = Date()
    for subscriber in subscribers { store.subscribe(subscriber) { $0.select(\.value) } }
    let subscribing = Date().timeIntervalSince(first)
    let second = Date()
    for subscriber in subscribers.reversed() {
      store.subscribe(subscriber) { $0.select(\.value) }
    }
    let resubscribing = Date().timeIntervalSince(second)
    store.dispatch(Increment())
    // then: ReSwift replaces a subscription by the subscriber's identity in constant time
    // (this took 40 times as long as subscribing when each replacement searched the list)
    XCTAssertLessThan(resubscribing, max(subscribing * 8, 0.25))
    XCTAssertEqual(store.subscriptionCount, 3000)
    XCTAssertTrue(subscribers.allSatisfy { $0.received == [nil, nil, 1] })
    // and the re-subscribed ones are notified in their new order
    var order: [Int] = []
    let probes = (0..<40).map { index in ClosureSubscriber<Int?> { _ in order.append(index) } }
    for probe in probes { store.subscribe(probe) { $0.select(\.value) } }
    for probe in probes.reversed() { store.subscribe(probe) { $0.select(\.value) } }
    order.removeAll()
    store.dispatch(Increment())
    XCTAssertEqual(order, Array((0..<40).reversed()))
  }

  func test_unsubscribingMost_keepsTheOthersInOrder() {
    // given
    let store = Store(reducer: counterReducer, state: CounterState())
    var order: [Int] = []
    let subscribers = (0..<100).map { index in ClosureSubscriber<Int?> { _ in order.append(index) }
    }
    for subscriber in subscribers { store.subscribe(subscriber) { $0.select(\.value) } }
    // when: enough removals to compact the list
    for (index, subscriber) in subscribers.enumerated() where index % 10 != 0 {
      store.unsubscribe(subscriber)
    }
    order.removeAll()
    store.dispatch(Increment())
    // then
    XCTAssertEqual(order, Array(stride(from: 0, to: 100, by: 10)))
    XCTAssertEqual(store.subscriptionCount, 10)
    XCTAssertEqual(store.deliveryList.compactMap { $0 }.count, 10)
  }
}
