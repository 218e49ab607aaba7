import XCTest

@testable import ReactorKitReSwift

/// Subscribing, replacing, unsubscribing and the weak hold on subscribers (ReSwift's
/// StoreSubscriptionTests).
final class StoreSubscriptionTests: XCTestCase {
  private var store: Store<CounterState>!

  override func setUp() {
    super.setUp()
    store = Store(reducer: counterReducer, state: CounterState(), automaticallySkipsRepeats: false)
  }

  override func tearDown() {
    store = nil
    super.tearDown()
  }

  func test_subscribe_holdsTheSubscriberWeakly() {
    // given
    var subscriber: Recorder<CounterState>? = Recorder()
    store.subscribe(subscriber!)
    XCTAssertEqual(store.liveSubscriberCount, 1)

    // when
    subscriber = nil

    // then
    XCTAssertEqual(store.liveSubscriberCount, 0)
  }

  func test_freedSubscribers_areRemovedOnTheNextState() {
    // given
    var first: Recorder<CounterState>? = Recorder()
    var second: Recorder<CounterState>? = Recorder()
    store.subscribe(first!)
    store.subscribe(second!)
    store.dispatch(SetValue(3))
    XCTAssertEqual(store.subscriptionCount, 2)
    XCTAssertEqual(first?.last?.value, 3)

    // when
    first = nil
    store.dispatch(SetValue(5))

    // then
    XCTAssertEqual(store.subscriptionCount, 1)
    XCTAssertEqual(second?.last?.value, 5)
    second = nil
    store.dispatch(SetValue(8))
    XCTAssertEqual(store.subscriptionCount, 0)
  }

  func test_subscribeAgain_replacesTheSubscription() {
    // given
    let subscriber = Recorder<CounterState>()
    store.subscribe(subscriber)

    // when
    store.subscribe(subscriber) { $0.skipRepeats { $0.value == $1.value } }
    for _ in 0..<4 { store.dispatch(SetValue(3)) }

    // then: one initial state per subscription, then one change
    XCTAssertEqual(subscriber.count, 3)
    XCTAssertEqual(store.subscriptionCount, 1)
  }

  func test_subscribeTwice_keepsOneSubscription() {
    // given
    let subscriber = Recorder<CounterState>()

    // when
    store.subscribe(subscriber)
    store.subscribe(subscriber)
    store.subscribe(subscriber) { $0 }

    // then
    XCTAssertEqual(store.subscriptionCount, 1)
  }

  func test_subscribe_deliversTheCurrentStateAtOnce() {
    // given
    store.dispatch(SetValue(7))
    let subscriber = Recorder<CounterState>()

    // when
    store.subscribe(subscriber)

    // then
    XCTAssertEqual(subscriber.received.map(\.value), [7])
  }

  func test_dispatchFromASubscriber_isReducedAfterTheCurrentNotification() {
    // given
    let store = self.store!
    var order: [String] = []
    let dispatcher = ClosureSubscriber<CounterState> { state in
      order.append("dispatcher \(state.value ?? 0)")
      if state.value == 2 { store.dispatch(SetValue(5)) }
    }
    let observer = ClosureSubscriber<CounterState> { order.append("observer \($0.value ?? 0)") }
    store.subscribe(dispatcher)
    store.subscribe(observer)

    // when
    store.dispatch(SetValue(2))

    // then: queued, not nested: every subscriber sees 2 before anyone sees 5
    XCTAssertEqual(store.state.value, 5)
    XCTAssertEqual(
      order,
      [
        "dispatcher 0", "observer 0", "dispatcher 2", "observer 2", "dispatcher 5", "observer 5",
      ])
  }

  func test_unsubscribe_stopsDeliveryUntilSubscribedAgain() {
    // given
    let subscriber = Recorder<CounterState>()
    store.dispatch(SetValue(5))
    store.subscribe(subscriber)
    store.dispatch(SetValue(10))

    // when
    store.unsubscribe(subscriber)
    store.dispatch(SetValue(15))
    store.dispatch(SetValue(25))
    store.subscribe(subscriber)
    store.dispatch(SetValue(20))

    // then
    XCTAssertEqual(subscriber.received.map(\.value), [5, 10, 25, 20])
  }

  func test_unsubscribe_unknownSubscriber_doesNothing() {
    // given
    let subscriber = Recorder<CounterState>()
    store.subscribe(subscriber)

    // when
    store.unsubscribe(Recorder<Int>())
    store.dispatch(SetValue(1))

    // then
    XCTAssertEqual(subscriber.count, 2)
  }

  func test_subscribeFromNewState_keepsBothSubscriptions() {
    // given
    let store = self.store!
    let second = ClosureSubscriber<CounterState> { _ in store.dispatch(SetValue(2)) }
    let first = ClosureSubscriber<CounterState> { state in
      if state.value == 1 {
        store.subscribe(second) { $0.skip(when: { _, _ in true }) }
      }
    }
    store.subscribe(first) { $0.only(when: { _, new in new.value == 1 }) }

    // when
    store.dispatch(SetValue(1))

    // then
    XCTAssertEqual(store.subscriptionCount, 2)
    XCTAssertEqual(store.liveSubscriberCount, 2)
    XCTAssertEqual(store.state.value, 2)
  }

  func test_unsubscribe_releasesThePipelineAndSelectors() {
    // given
    let probe = DeinitProbe()
    let subscriber = Recorder<Int?>()
    do {
      let captured = ProbeHolder(probe: probe)
      store.subscribe(subscriber) {
        $0.select {
          _ = captured
          return $0.value
        }
      }
    }
    store.dispatch(Noop())
    XCTAssertFalse(probe.isFreed)

    // when
    store.unsubscribe(subscriber)

    // then
    XCTAssertTrue(probe.isFreed)
    store.dispatch(Noop())
    XCTAssertEqual(subscriber.count, 2)
    XCTAssertEqual(store.subscriptionCount, 0)
  }

  func test_freedSubscriber_releasesItsPipelineOnTheNextState() {
    // given
    let probe = DeinitProbe()
    var subscriber: Recorder<Int?>? = Recorder()
    do {
      let captured = ProbeHolder(probe: probe)
      store.subscribe(subscriber!) {
        $0.select {
          _ = captured
          return $0.value
        }
      }
    }

    // when
    subscriber = nil
    store.dispatch(Noop())

    // then
    XCTAssertTrue(probe.isFreed)
  }

  func test_freedStore_releasesItsSubscriptionsAndSubscribersStayAlive() {
    // given
    let probe = DeinitProbe()
    let subscriber = Recorder<Int?>()
    do {
      let captured = ProbeHolder(probe: probe)
      store.subscribe(subscriber) {
        $0.select {
          _ = captured
          return $0.value
        }
      }
    }

    // when
    store = nil

    // then
    XCTAssertTrue(probe.isFreed)
    XCTAssertEqual(subscriber.count, 1)
  }

  func test_anyStoreSubscriber_newStateWithAnotherType_isIgnored() {
    // given
    let subscriber = Recorder<Int>()

    // when
    subscriber._newState(state: "text")
    subscriber._newState(state: 4)

    // then
    XCTAssertEqual(subscriber.received, [4])
  }
}

/// Frees a probe with itself.
private final class ProbeHolder {
  let probe: DeinitProbe
  init(probe: DeinitProbe) { self.probe = probe }
  deinit { probe.isFreed = true }
}
