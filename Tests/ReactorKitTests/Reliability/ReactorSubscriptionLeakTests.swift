import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Subscriptions whose disposable was dropped (a forgotten `disposed(by:)`) end when their
/// source goes away: the closure, what it captures, the sinks and the engine are released,
/// and `Resources.total` is back to its baseline.
final class ReactorSubscriptionLeakTests: ResourceTestCase {
  // MARK: - Reactor state

  func test_stateSubscriptionWithDroppedDisposable_isReleasedWithTheReactor() {
    // given
    let start = Resources.total
    weak var weakProbe: Probe?
    weak var weakReactor: LeakReactor?
    do {
      let reactor = LeakReactor()
      let probe = Probe()
      weakProbe = probe
      weakReactor = reactor
      _ = reactor.state.subscribe(onNext: { _ in probe.touch() })
      reactor.action.onNext(1)
      XCTAssertEqual(probe.touches, 2)
    }
    // when: Linux has no deinitialisation hook; the cleanup stands in for the sweep
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakReactor)
    XCTAssertNil(weakProbe, "the subscription's closure outlived the reactor")
    XCTAssertEqual(Resources.total, start)
  }

  func test_stateSubscriptionsKeptInTheirOwnersBag_areReleasedWithTheReactor() {
    // A subscriber whose closure captures the owner of the bag holding its disposable: the
    // bag must not keep the closure once the reactor is gone (owner → bag → disposable →
    // closure → owner would never break). Found in review of the one-object subscription.
    // Only the subscriptions keep the owner, and so its probe, alive.
    assertReleasedWithTheReactor(LeakReactor(), touchesAfterAction: 4) { reactor, probe in
      let owner = BagOwner(probe: probe)
      reactor.state.subscribe(AnyObserver { _ in owner.probe.touch() }).disposed(by: owner.bag)
      reactor.state.subscribe(onNext: { _ in owner.probe.touch() }).disposed(by: owner.bag)
      reactor.state.bind(to: owner.relay).disposed(by: owner.bag)
    }
  }

  func test_stateChainSubscribedAfterTheReactorIsGone_isReleased() {
    // The state stream of a freed reactor delivers its last state and ends the subscription,
    // so an operator chain subscribed then releases its closure. Found in review.
    // given
    let start = Resources.total
    weak var weakProbe: Probe?
    var state: Observable<Int>?
    do {
      let reactor = LeakReactor()
      reactor.action.onNext(1)
      state = reactor.state
    }
    StorageTables.reactors.purge()
    // when
    do {
      let probe = Probe()
      weakProbe = probe
      var delivered: [Int] = []
      _ = state?.map { $0 * 10 }.subscribe(onNext: {
        delivered.append($0)
        probe.touch()
      })
      XCTAssertEqual(delivered, [10])
    }
    state = nil
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakProbe, "the chain's closure outlived the freed reactor's stream")
    XCTAssertEqual(Resources.total, start)
  }

  func test_stateSubscriptionsWithDroppedDisposables_areReleasedSoonWithoutCleanup() {
    // given: several subscribers, so both the first and the other slots are used
    let start = Resources.total
    weak var weakProbe: Probe?
    do {
      let reactor = LeakReactor()
      let probe = Probe()
      weakProbe = probe
      for _ in 0..<3 { _ = reactor.state.subscribe(onNext: { _ in probe.touch() }) }
      reactor.action.onNext(1)
    }
    // when: nothing but the table's own release of freed reactors
    let released = waitUntil(timeout: 2) { weakProbe == nil && Resources.total == start }
    // then
    XCTAssertTrue(released, "still alive 2 s after the reactor was freed")
    XCTAssertNil(weakProbe)
    XCTAssertEqual(Resources.total, start)
  }

  func test_stateSubscriptionWithDroppedDisposable_madeFromAnotherThreadWhileIdle_isReleased() {
    // given: a subscriber that claims the idle reactor from another thread
    let start = Resources.total
    weak var weakProbe: Probe?
    do {
      let reactor = LeakReactor()
      _ = reactor.state
      let probe = Probe()
      weakProbe = probe
      let state = reactor.state
      let done = DispatchSemaphore(value: 0)
      Thread {
        _ = state.subscribe(onNext: { _ in probe.touch() })
        done.signal()
      }.start()
      XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
      reactor.action.onNext(1)
      XCTAssertEqual(probe.touches, 2)
    }
    // when
    StorageTables.reactors.purge()
    // then: the thread lets go of its closure (with the probe) when it exits
    XCTAssertTrue(waitUntil(timeout: 10) { weakProbe == nil && Resources.total == start })
    XCTAssertNil(weakProbe)
    XCTAssertEqual(Resources.total, start)
  }

  func test_stateSubscriptionMadeWhileAnActionRuns_withDroppedDisposable_isReleased() {
    // given: a subscriber queued for the owner (subscribed from a state subscriber)
    let start = Resources.total
    weak var weakProbe: Probe?
    do {
      let reactor = LeakReactor()
      let probe = Probe()
      weakProbe = probe
      let state = reactor.state
      let outer = state.subscribe(onNext: { value in
        guard value == 1 else { return }
        _ = state.subscribe(onNext: { _ in probe.touch() })
      })
      reactor.action.onNext(1)
      XCTAssertEqual(probe.touches, 1)
      outer.dispose()
    }
    // when
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakProbe)
    XCTAssertEqual(Resources.total, start)
  }

  func test_stateSubscriptionDisposedWhileQueued_isNeverDelivered() {
    // given: a subscriber queued for the owner, disposed before the owner registers it
    let reactor = LeakReactor()
    let probe = Probe()
    let state = reactor.state
    var inner: Disposable?
    let outer = state.subscribe(onNext: { value in
      guard value == 1 else { return }
      inner = state.subscribe(onNext: { _ in probe.touch() })
      inner?.dispose()
    })
    // when
    reactor.action.onNext(1)
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(probe.touches, 0)
    outer.dispose()
  }

  func test_transformedStateSubscriptionWithDroppedDisposable_isReleasedWithTheReactor() {
    assertReleasedWithTheReactor(LeakReactor(transformsState: true)) { reactor, probe in
      _ = reactor.state.subscribe(onNext: { _ in probe.touch() })
    }
  }

  func test_stateOperatorChainWithDroppedDisposable_isReleasedWithTheReactor() {
    assertReleasedWithTheReactor(LeakReactor()) { reactor, probe in
      _ = reactor.state.map { $0 * 2 }.filter { $0 >= 0 }.subscribe(onNext: { _ in probe.touch() })
    }
  }

  func test_transformedStateOperatorChainWithDroppedDisposable_isReleasedWithTheReactor() {
    assertReleasedWithTheReactor(LeakReactor(transformsState: true)) { reactor, probe in
      _ = reactor.state.map { $0 * 2 }.subscribe(onNext: { _ in probe.touch() })
    }
  }

  // MARK: - Reactor action

  func test_actionSubscriptionWithDroppedDisposable_isReleasedWithTheReactor() {
    assertReleasedWithTheReactor(LeakReactor(), touchesAfterAction: 1) { reactor, probe in
      _ = reactor.action.subscribe(onNext: { _ in probe.touch() })
    }
  }

  func test_actionOperatorChainWithDroppedDisposable_isReleasedWithTheReactor() {
    assertReleasedWithTheReactor(LeakReactor(), touchesAfterAction: 1) { reactor, probe in
      _ = reactor.action.map { $0 + 1 }.subscribe(onNext: { _ in probe.touch() })
    }
  }

  func test_actionSubscriptionWithDroppedDisposable_staysWhileTheReactorLives() {
    // given
    let reactor = LeakReactor()
    let probe = Probe()
    _ = reactor.action.subscribe(onNext: { _ in probe.touch() })
    // when
    StorageTables.reactors.purge()
    reactor.action.onNext(1)
    reactor.action.onNext(2)
    // then
    XCTAssertEqual(probe.touches, 2)
  }

  func test_stateSubscriptionWithDroppedDisposable_staysWhileTheReactorLives() {
    // given
    let reactor = LeakReactor()
    let probe = Probe()
    _ = reactor.state.subscribe(onNext: { _ in probe.touch() })
    // when
    StorageTables.reactors.purge()
    reactor.action.onNext(1)
    // then: the initial state and the new one
    XCTAssertEqual(probe.touches, 2)
  }

  // MARK: - Idle reactors

  #if !canImport(ObjectiveC)
    func test_idleReactors_scheduleNoSweep() {
      // given: live reactors with a subscriber each
      let reactors = (0..<100).map { _ in LeakReactor() }
      let subscriptions = reactors.map { $0.state.subscribe(onNext: { _ in }) }
      // when: nothing happens for longer than the table watches them
      XCTAssertTrue(waitUntil(timeout: 10) { !StorageTables.reactors.isSweepScheduled })
      let sweeps = StorageTables.reactors.sweepCount
      Thread.sleep(forTimeInterval: 0.3)
      // then: no timer fires
      XCTAssertFalse(StorageTables.reactors.isSweepScheduled)
      XCTAssertEqual(StorageTables.reactors.sweepCount, sweeps)
      for subscription in subscriptions { subscription.dispose() }
    }
  #endif

  func test_reactorIdleForLong_freedAfterItsSubscriberIsDisposed_isReleasedPromptly() {
    // given: a reactor left alone for longer than the table watches it after a use
    let start = Resources.total
    var reactor: LeakReactor? = LeakReactor()
    let subscription = reactor!.state.subscribe(onNext: { _ in })
    reactor!.action.onNext(1)
    XCTAssertTrue(waitUntil(timeout: 10) { !StorageTables.reactors.isSweepScheduled })
    // when: its view goes away: the bag disposes the subscription, then the reactor is freed
    subscription.dispose()
    reactor = nil
    // then: released without a cleanup call
    XCTAssertTrue(waitUntil(timeout: 2) { Resources.total == start })
    XCTAssertEqual(Resources.total, start)
  }

  // MARK: - Observed models

  @MainActor
  func test_observedReactor_releasesTheReactorAndItsSubscriptionWhenFreed() async {
    // given
    let start = Resources.total
    weak var weakReactor: LeakReactor?
    weak var weakObserved: ObservedState<Int>?
    do {
      let model = ObservedReactor(LeakReactor())
      weakReactor = model.reactor
      weakObserved = model.observed
      model.send(1)
      XCTAssertEqual(model.state, 1)
    }
    // when
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakReactor)
    XCTAssertNil(weakObserved)
    XCTAssertEqual(Resources.total, start)
  }

  @MainActor
  func test_observedReactor_freedWhileTheReactorLives_endsItsSubscription() async {
    // given
    let start = Resources.total
    let reactor = LeakReactor()
    _ = reactor.state
    let afterCreation = Resources.total
    weak var weakObserved: ObservedState<Int>?
    do {
      let model = ObservedReactor(reactor)
      weakObserved = model.observed
      model.send(1)
    }
    // then
    XCTAssertNil(weakObserved)
    XCTAssertEqual(Resources.total, afterCreation)
    XCTAssertGreaterThan(afterCreation, start)
  }

  @MainActor
  func test_observedStore_releasesTheStoreAndItsSubscriptionWhenFreed() async {
    // given
    let start = Resources.total
    weak var weakStore: Store<StoreCounterState>?
    weak var weakObserved: ObservedState<Int>?
    do {
      let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
      weakStore = store
      let model = store.observed(\.count)
      weakObserved = model.observed
      model.dispatch(StoreCounterAction.increment)
      XCTAssertEqual(model.state, 1)
    }
    // then
    XCTAssertNil(weakStore)
    XCTAssertNil(weakObserved)
    XCTAssertEqual(Resources.total, start)
  }

  // MARK: - Store

  func test_storeStateSubscriptionWithDroppedDisposable_isReleasedWithTheStore() {
    // given
    let start = Resources.total
    weak var weakProbe: Probe?
    weak var weakStore: Store<StoreCounterState>?
    do {
      let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
      let probe = Probe()
      weakProbe = probe
      weakStore = store
      _ = store.state.subscribe(onNext: { _ in probe.touch() })
      store.dispatch(StoreCounterAction.increment)
      XCTAssertEqual(probe.touches, 2)
    }
    // then
    XCTAssertNil(weakStore)
    XCTAssertNil(weakProbe, "the subscription's closure outlived the store")
    XCTAssertEqual(Resources.total, start)
  }

  /// Subscribes with `subscribe` (a dropped disposable whose closure touches the probe), sends
  /// an action, frees the reactor, and checks that the probe and every counted resource were
  /// released.
  private func assertReleasedWithTheReactor(
    _ make: @autoclosure () -> LeakReactor, touchesAfterAction: Int = 2,
    file: StaticString = #filePath, line: UInt = #line,
    subscribe: (LeakReactor, Probe) -> Void
  ) {
    // given
    let start = Resources.total
    weak var weakProbe: Probe?
    weak var weakReactor: LeakReactor?
    do {
      let reactor = make()
      let probe = Probe()
      weakProbe = probe
      weakReactor = reactor
      subscribe(reactor, probe)
      reactor.action.onNext(1)
      XCTAssertEqual(probe.touches, touchesAfterAction, file: file, line: line)
    }
    // when: Linux has no deinitialisation hook; the cleanup stands in for the sweep
    StorageTables.reactors.purge()
    // then
    _ = waitUntil(timeout: 2) { weakProbe == nil && Resources.total == start }
    XCTAssertNil(weakReactor, "the reactor was not freed", file: file, line: line)
    XCTAssertNil(
      weakProbe, "the subscription's closure outlived the reactor", file: file, line: line)
    XCTAssertEqual(Resources.total, start, file: file, line: line)
  }

}

/// An object that keeps its subscriptions in its own bag, as a view or view model does.
private final class BagOwner: @unchecked Sendable {
  // Safety: used by the test's thread and the serial deliveries of its subscriptions.
  let bag = DisposeBag()
  let probe: Probe
  let relay = PublishSubject<Int>()

  init(probe: Probe) { self.probe = probe }
}

/// What a subscription's closure captures; its lifetime shows the closure's.
private final class Probe: @unchecked Sendable {
  // Safety: touched only by the serial deliveries of the test's subscriptions.
  private(set) var touches = 0

  func touch() { touches += 1 }
}

private final class LeakReactor: Reactor {
  typealias Action = Int
  typealias State = Int

  let initialState = 0
  let transformsState: Bool

  init(transformsState: Bool = false) {
    self.transformsState = transformsState
  }

  func reduce(state: Int, mutation: Int) -> Int {
    state + mutation
  }

  func transform(state: Observable<Int>) -> Observable<Int> {
    transformsState ? state.map { $0 } : state
  }
}
