import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

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

  func test_actionAndState_areReleasedWithReactor() {
    // given
    weak var weakAction: ActionSubject<Int>?
    weak var weakState: Observable<Int>?
    // when
    do {
      let reactor = CountingReactor()
      weakAction = reactor.action
      weakState = reactor.state
      reactor.action.onNext(1)
    }
    StorageTables.reactors.purge()
    // then
    XCTAssertNil(weakAction)
    XCTAssertNil(weakState)
  }

  func test_actionAndState_areReleasedWithoutExplicitCleanup() {
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
