import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Engine: ReactorCore+Wiring.swift and ReactorLifecycle.swift (wiring, ending and disposal).
final class ReactorLifetimeTests: ResourceTestCase {
  func test_reactor_isDeinitializedWhenReleased() {
    // given
    let deinitialized = Locked(false)
    weak var weakReactor: CountingReactor?
    // when
    do {
      let reactor = CountingReactor(onDeinit: { deinitialized.withLock { $0 = true } })
      weakReactor = reactor
      let subscription = reactor.state.subscribe()
      reactor.action.onNext(1)
      subscription.dispose()
    }
    // then
    XCTAssertNil(weakReactor)
    XCTAssertTrue(deinitialized.current)
  }

  func test_reactor_releasedByItsOwnSubscriberDuringAnAction_isDeinitializedWhenTheActionEnds() {
    // given
    let events = Locked<[String]>([])
    var reactor: CountingReactor? = CountingReactor(onDeinit: {
      events.withLock { $0.append("deinit") }
    })
    weak let weakReactor = reactor
    let action = reactor!.action
    let subscription = reactor!.state.subscribe(onNext: { state in
      guard state == 1 else { return }
      events.withLock { $0.append("state 1") }
      reactor = nil
      events.withLock { $0.append("released") }
    })
    // when
    action.onNext(1)
    // then
    XCTAssertEqual(events.current, ["state 1", "released", "deinit"])
    XCTAssertNil(weakReactor)
    action.onNext(1)
    subscription.dispose()
  }

  func test_actionAndState_areReleasedWithReactor() {
    // given
    weak var weakReactor: CountingReactor?
    weak var weakAction: ActionSubject<Int>?
    weak var weakState: Observable<Int>?
    // when
    do {
      let reactor = CountingReactor()
      weakReactor = reactor
      weakAction = reactor.action
      weakState = reactor.state
      reactor.action.onNext(1)
    }
    // Apple platforms release at once; Linux, which has no deinitialisation hook for
    // arbitrary classes, at the next cleanup.
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakReactor)
    XCTAssertNil(weakAction)
    XCTAssertNil(weakState)
  }

  func test_releaseFreedReactors_releasesAFreedReactorsStreamsAtOnce() {
    // given: a reactor with a state subscriber, used, then freed
    let start = Resources.total
    weak var weakAction: ActionSubject<Int>?
    weak var weakState: Observable<Int>?
    do {
      let reactor = CountingReactor()
      let subscription = reactor.state.subscribe()
      reactor.action.onNext(1)
      weakAction = reactor.action
      weakState = reactor.state
      subscription.dispose()
    }
    // when: before any Linux sweep could run (the first is 50 ms after the last use)
    ReactorKitLibrary.releaseFreedReactors()
    // then
    XCTAssertNil(weakAction)
    XCTAssertNil(weakState)
    XCTAssertEqual(Resources.total, start)
  }

  func test_actionAndState_areReleasedSoonAfterReactorWithoutExplicitCleanup() {
    // given
    weak var weakAction: ActionSubject<Int>?
    weak var weakState: Observable<Int>?
    // when
    do {
      let reactor = CountingReactor()
      weakAction = reactor.action
      weakState = reactor.state
    }
    let deadline = Date().addingTimeInterval(2)
    while (weakAction != nil || weakState != nil) && Date() < deadline { usleep(1_000) }
    // then
    XCTAssertNil(weakAction)
    XCTAssertNil(weakState)
  }

  func test_engine_isReleasedSoonAfterReactorWithoutExplicitCleanup() {
    // given
    let start = Resources.total
    // when
    do {
      let reactor = CountingReactor()
      let subscription = reactor.state.subscribe()
      reactor.action.onNext(1)
      subscription.dispose()
    }
    let deadline = Date().addingTimeInterval(2)
    while Resources.total != start && Date() < deadline { usleep(1_000) }
    // then
    XCTAssertEqual(Resources.total, start)
  }

  func test_engine_isReleasedAtOnceByCleanup() {
    // given
    let start = Resources.total
    do {
      let reactor = CountingReactor()
      reactor.action.onNext(1)
    }
    // when
    StorageTables.reactors.purge()
    // then
    XCTAssertEqual(Resources.total, start)
  }

  func test_actionAndState_stayTheSameObjectsWhileNobodyHoldsThem() {
    // given
    let reactor = CountingReactor()
    let action = ObjectIdentifier(reactor.action)
    let state = ObjectIdentifier(reactor.state)
    // when
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(ObjectIdentifier(reactor.action), action)
    XCTAssertEqual(ObjectIdentifier(reactor.state), state)
  }

  func test_stateObservable_replaysLatestStateToEachNewSubscriber() {
    // given
    let reactor = CountingReactor()
    var first: [Int] = []
    let firstSubscription = reactor.state.subscribe(onNext: { first.append($0) })
    reactor.action.onNext(5)
    var second: [Int] = []
    // when
    let secondSubscription = reactor.state.subscribe(onNext: { second.append($0) })
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(first, [0, 5, 6])
    XCTAssertEqual(second, [5, 6])
    firstSubscription.dispose()
    secondSubscription.dispose()
  }

  func test_stub_isReleasedWithReactor() {
    // given
    weak var weakStubAction: ActionSubject<Int>?
    weak var weakStubState: StateRelay<Int>?
    // when
    do {
      let reactor = CountingReactor()
      reactor.isStubEnabled = true
      weakStubAction = reactor.action
      weakStubState = reactor.stub.state
    }
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakStubAction)
    XCTAssertNil(weakStubState)
  }

  func test_runningMutation_isDisposedWhenReactorIsReleased() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let mutations = scheduler.createHotObservable([.next(150, 1), .next(250, 2)])
    var reactor: SourceReactor? = SourceReactor(mutations: mutations.asObservable())
    scheduler.scheduleAt(100) { reactor?.action.onNext(()) }
    scheduler.scheduleAt(200) {
      reactor = nil
      StorageTables.reactors.purge()
    }
    // when
    scheduler.start()
    // then
    XCTAssertEqual(mutations.subscriptions, [Subscription(100, 200)])
  }

  func test_runningMutation_stopsAtItsNextEventOnceReactorIsGone() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let mutations = scheduler.createHotObservable([.next(150, 1), .next(250, 2)])
    var reactor: SourceReactor? = SourceReactor(mutations: mutations.asObservable())
    scheduler.scheduleAt(100) { reactor?.action.onNext(()) }
    scheduler.scheduleAt(200) { reactor = nil }
    // when
    scheduler.start()
    // then
    let end = mutations.subscriptions.first?.unsubscribe ?? .max
    XCTAssertLessThanOrEqual(end, 250)
    XCTAssertGreaterThanOrEqual(end, 200)
  }

  func test_reactorsCreatedOneAfterAnother_neverShareStorage() {
    for round in 0..<200 {
      // given
      let reactor = CountingReactor()
      // when
      let initial = reactor.currentState
      reactor.action.onNext(round + 1)
      // then
      XCTAssertEqual(initial, 0, "round \(round) inherited a released reactor's state")
      XCTAssertEqual(reactor.currentState, round + 1)
    }
  }
}

// MARK: - Fakes

private final class CountingReactor: Reactor {
  typealias Action = Int
  typealias State = Int

  let initialState = 0
  private let onDeinit: () -> Void

  init(onDeinit: @escaping () -> Void = {}) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Subscribes to the same source for every action.
private final class SourceReactor: Reactor {
  typealias Action = Void
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  private let mutations: Observable<Int>

  init(mutations: Observable<Int>) {
    self.mutations = mutations
  }

  func mutate(action: Void) -> Observable<Int> { mutations }
  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}
