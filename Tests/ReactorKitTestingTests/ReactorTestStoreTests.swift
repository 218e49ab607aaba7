import Dispatch
import Foundation
import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import XCTest

/// A reactor with a synchronous action, a delayed one on a `TestScheduler`, a stream that
/// never ends and one that emits from another thread.
private final class LoaderReactor: Reactor {
  enum Action: Equatable { case increase, refresh, watch, background }
  enum Mutation: Equatable {
    case add(Int)
    case setLoading(Bool)
    case setCount(Int)
  }
  struct State: Equatable {
    var count = 0
    var isLoading = false
  }

  let initialState = State()
  let scheduler: TestScheduler

  init(scheduler: TestScheduler) {
    self.scheduler = scheduler
  }

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .increase:
      return .just(.add(1))
    case .refresh:
      return .concat(
        .just(.setLoading(true)),
        Observable<Int>.timer(.seconds(5), scheduler: scheduler).map { _ in .setCount(3) },
        .just(.setLoading(false)))
    case .watch:
      return .never()
    case .background:
      return Observable.just(.add(10)).subscribe(
        on: ConcurrentDispatchQueueScheduler(qos: .default))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .add(let amount): state.count += amount
    case .setLoading(let isLoading): state.isLoading = isLoading
    case .setCount(let count): state.count = count
    }
    return state
  }
}

final class ReactorTestStoreTests: ResourceTestCase {
  private let scheduler = TestScheduler(initialClock: 0)
  private let failures = FailureLog()

  private func makeStore(line: UInt = #line) -> ReactorTestStore<LoaderReactor> {
    let store = ReactorTestStore(reactor: LoaderReactor(scheduler: scheduler), line: line)
    store.reportFailure = failures.record
    return store
  }

  func test_aSynchronousMutation_isReceivedWithItsStateChange() {
    // given
    let store = makeStore()
    // when
    store.send(.increase)
    store.receive(.add(1)) { $0.count = 1 }
    store.send(.increase)
    store.receive(.add(1)) { $0.count = 2 }
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(store.state.count, 2)
    XCTAssertEqual(store.reactor.currentState.count, 2)
  }

  func test_mutationsInVirtualTime_areReceivedAfterTheSchedulerAdvances() {
    // given
    let store = makeStore()
    // when
    store.send(.refresh)
    store.receive(.setLoading(true)) { $0.isLoading = true }
    scheduler.advance(by: .seconds(5))
    store.receive(.setCount(3)) { $0.count = 3 }
    store.receive(.setLoading(false)) { $0.isLoading = false }
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_aWrongStateChange_failsNamingTheDifference() {
    // given
    let store = makeStore()
    store.send(.increase)
    // when
    let line: UInt = #line + 1
    store.receive(.add(1)) { $0.count = 2 }
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "The state after receiving Mutation.add(1) does not match the expected "
          + "state (1 difference):\n  \\.count: expected 2, actual 1"
      ])
    XCTAssertEqual(failures.failures.first?.line, line)
    XCTAssertEqual(store.state.count, 1, "the actual state is the asserted one afterwards")
  }

  func test_aStateChangeThatWasNotDescribed_fails() {
    // given
    let store = makeStore()
    store.send(.increase)
    // when
    store.receive(.add(1))
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "The state changed after receiving Mutation.add(1), but no change was "
          + "expected (1 difference):\n  \\.count: expected 0, actual 1"
      ])
  }

  func test_anotherMutationThanExpected_failsNamingIt() {
    // given
    let store = makeStore()
    store.send(.refresh)
    // when
    store.receive(.setCount(3)) { $0.count = 3 }
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "Expected to receive Mutation.setCount(3), but received "
          + "Mutation.setLoading(true)."
      ])
    store.cancelInFlightMutations()
    store.exhaustivity = .off
  }

  func test_receivingBeforeTheSchedulerAdvances_failsNamingTheRunningAction() {
    // given
    let store = makeStore()
    store.send(.refresh)
    store.receive(.setLoading(true)) { $0.isLoading = true }
    // when
    store.receive(.setCount(3)) { $0.count = 3 }
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "Expected to receive Mutation.setCount(3), but no mutation was reduced "
          + "(the mutations of Action.refresh are still running: advance the test "
          + "scheduler or clock they wait on, or give receive a timeout)."
      ])
    store.cancelInFlightMutations()
    store.finish()
    XCTAssertEqual(failures.messages.count, 1, "cancelled work does not fail the end")
  }

  func test_unassertedMutations_failBeforeTheNextSend() {
    // given
    let store = makeStore()
    store.send(.increase)
    // when
    store.send(.increase)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "1 received mutation must be asserted before sending Action.increase: "
          + "Mutation.add(1)."
      ])
    store.receive(.add(1)) { $0.count = 2 }
    store.finish()
    XCTAssertEqual(failures.messages.count, 1)
  }

  func test_finish_failsForUnassertedMutations() {
    // given
    let store = makeStore()
    store.send(.increase)
    store.send(.increase)  // fails: the first add(1) was not asserted
    // when
    let line: UInt = #line + 1
    store.finish()
    // then
    XCTAssertEqual(
      failures.messages.last,
      "1 received mutation was not asserted before the test ended: "
        + "Mutation.add(1). Assert it with receive, or skip it with "
        + "skipReceivedMutations().")
    XCTAssertEqual(failures.failures.last?.line, line)
  }

  func test_finish_failsWhileAnActionsMutationsAreStillRunning() {
    // given
    let store = makeStore()
    store.send(.watch)
    // when
    store.finish(timeout: 0.01)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "The mutations of 1 action were still running when the test ended "
          + "(Action.watch). Receive its mutations, advance the test scheduler or "
          + "clock it waits on until it completes, or end it with cancelInFlightMutations()."
      ])
  }

  func test_finish_namesEveryActionWhoseMutationsAreStillRunning() {
    // given
    let store = makeStore()
    store.send(.watch)
    store.send(.refresh)
    store.receive(.setLoading(true)) { $0.isLoading = true }
    // when
    store.finish(timeout: 0)
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "The mutations of 2 actions were still running when the test ended (Action.watch, "
          + "Action.refresh). Receive their mutations, advance the test scheduler or clock they "
          + "wait on until they complete, or end them with cancelInFlightMutations()."
      ])
    store.cancelInFlightMutations()
  }

  func test_cancelInFlightMutations_endsRunningStreamsAndLaterOnesRun() {
    // given
    let store = makeStore()
    store.send(.watch)
    store.send(.refresh)
    store.receive(.setLoading(true)) { $0.isLoading = true }
    // when
    store.cancelInFlightMutations()
    scheduler.advance(by: .seconds(5))
    store.send(.increase)
    store.receive(.add(1)) { $0.count = 1 }
    store.finish(timeout: 0)
    // then: refresh's timer was cancelled, so neither setCount nor setLoading(false) came
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(store.reactor.currentState, LoaderReactor.State(count: 1, isLoading: true))
  }

  func test_freeingTheStore_reportsAtTheCreationSite() {
    // given
    var line: UInt = 0
    do {
      line = #line + 1
      let store = makeStore(line: line)
      store.send(.increase)
    }
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "1 received mutation was not asserted before the test ended: "
          + "Mutation.add(1). Assert it with receive, or skip it with "
          + "skipReceivedMutations()."
      ])
    XCTAssertEqual(failures.failures.first?.line, line)
  }

  func test_exhaustivityOff_skipsMutationsAndChecksOnlyTheFieldsSet() {
    // given
    let store = makeStore()
    store.exhaustivity = .off
    // when
    store.send(.refresh)
    scheduler.advance(by: .seconds(5))
    store.receive(.setLoading(false)) { $0.isLoading = false }
    store.send(.increase)
    store.send(.watch)
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
    XCTAssertEqual(store.state, LoaderReactor.State(count: 4, isLoading: false))
  }

  func test_aMutationFromAnotherThread_isWaitedForWithATimeout() {
    // given
    let store = makeStore()
    // when
    store.send(.background)
    store.receive(.add(10), timeout: 5) { $0.count = 10 }
    store.finish(timeout: 5)
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_receiveWithAPredicate_forMutationsThatAreNotEquatable() {
    // given
    let store = makeStore()
    store.send(.increase)
    // when
    store.receive(
      { if case .add = $0 { return true } else { return false } },
      assert: {
        $0.count = 1
      })
    store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_skipReceivedMutations_acceptsTheirState() {
    // given
    let store = makeStore()
    store.send(.increase)
    store.send(.increase)  // fails: one unasserted
    // when
    store.skipReceivedMutations()
    store.finish()
    // then
    XCTAssertEqual(failures.messages.count, 1)
    XCTAssertEqual(store.state.count, 2)
  }

  func test_sendingToAStubbedReactor_failsSayingSo() {
    // given
    let store = makeStore()
    store.reactor.isStubEnabled = true
    // when
    store.send(.increase)
    store.finish()
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "The reactor's stub is enabled, so sending Action.increase runs none of "
          + "the reactor's code and no mutation can be received. Test the reactor with its "
          + "stub off; test a view against the stub instead."
      ])
    XCTAssertEqual(store.reactor.stub.actions, [.increase])
  }
}

@MainActor
final class ReactorTestStoreAsyncTests: ResourceTestCase {
  func test_asyncReceive_waitsForARunTaskWithoutBlockingTheMainActor() async {
    // given: a reactor whose mutations come from a `run` task on the main actor
    let failures = FailureLog()
    let store = ReactorTestStore(reactor: RunReactor())
    store.reportFailure = failures.record
    // when
    store.send(.load)
    await store.receive(.setItems(["a", "b"])) { $0.items = ["a", "b"] }
    await store.finish()
    // then
    XCTAssertEqual(failures.messages, [])
  }

  func test_asyncReceive_failsAfterItsTimeout() async {
    // given
    let failures = FailureLog()
    let store = ReactorTestStore(reactor: RunReactor())
    store.reportFailure = failures.record
    // when
    await store.receive(.setItems([]), timeout: .milliseconds(10))
    await store.finish()
    // then
    XCTAssertEqual(
      failures.messages,
      [
        "Expected to receive Mutation.setItems([]), but no mutation was reduced "
          + "within 0.01 seconds (no action's mutations are running)."
      ])
  }
}

private final class RunReactor: Reactor {
  enum Action { case load }
  enum Mutation: Equatable { case setItems([String]) }
  struct State: Equatable { var items: [String] = [] }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation> {
    run { send in
      await Task.yield()
      send(.setItems(["a", "b"]))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    switch mutation {
    case .setItems(let items): return State(items: items)
    }
  }
}
