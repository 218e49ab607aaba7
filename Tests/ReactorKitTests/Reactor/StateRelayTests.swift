import ReactorKit
import ReactorKitTesting
import XCTest

final class StateRelayTests: ResourceTestCase {
  func test_stateRelay_valueReflectsLatestAcceptedElement() {
    // given
    let relay = StateRelay(value: 0)
    // when
    relay.accept(100)
    let afterAccept = relay.value
    relay.value = 200
    // then
    XCTAssertEqual(afterAccept, 100)
    XCTAssertEqual(relay.value, 200)
  }

  func test_stateRelay_subscriberGetsCurrentValueThenEveryAssignment() {
    // given
    let relay = StateRelay(value: 1)
    var received: [Int] = []
    let subscription = relay.subscribe(onNext: { received.append($0) })
    // when
    relay.value = 2
    relay.value = 2
    relay.accept(3)
    // then
    XCTAssertEqual(received, [1, 2, 2, 3])
    subscription.dispose()
  }

  func test_stateRelay_neverCompletesWhenReleased() {
    // given
    var relay: StateRelay<Int>? = StateRelay(value: 1)
    var events: [Event<Int>] = []
    let subscription = relay!.asObservable().subscribe { events.append($0) }
    // when
    relay = nil
    // then
    XCTAssertEqual(events, [.next(1)])
    subscription.dispose()
  }

  func test_stateRelay_asObservableIsAlwaysTheSameObject() {
    // given
    let relay = StateRelay(value: 0)
    // when
    let observable = relay.asObservable()
    // then
    XCTAssertTrue(observable === relay.asObservable())
  }
}
