import ReactorKit
import ReactorKitTesting
import XCTest

final class ReactorTests: ResourceTestCase {
  // MARK: - Pipeline

  func test_state_runsStagesInPipelineOrder() {
    // given
    let reactor = StageReactor()
    let scheduler = TestScheduler(initialClock: 0)
    let actions = scheduler.createHotObservable([.next(100, ["action"])])
    let subscription = actions.subscribe(reactor.action)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
    // then
    XCTAssertEqual(
      observer.events,
      [
        .next(0, ["transformedState"]),
        .next(
          100,
          [
            "action", "transformedAction", "mutation", "transformedMutation", "reduce",
            "transformedState",
          ]),
      ])
    subscription.dispose()
  }

  func test_state_startsWithInitialState() {
    // given
    let reactor = CounterReactor()
    var received: [Int] = []
    // when
    let subscription = reactor.state.subscribe(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, [0])
    subscription.dispose()
  }

  func test_state_replaysLatestStateAfterEverySubscriberLeft() {
    // given
    let reactor = CounterReactor()
    let first = reactor.state.subscribe()
    reactor.action.onNext(())
    reactor.action.onNext(())
    first.dispose()
    var received: [Int] = []
    // when
    let second = reactor.state.subscribe(onNext: { received.append($0) })
    // then
    XCTAssertEqual(received, [2])
    second.dispose()
  }

  func test_state_isSharedBetweenSubscribers() {
    // given
    let reactor = CounterReactor()
    var first: [Int] = []
    var second: [Int] = []
    let subscriptions = [
      reactor.state.subscribe(onNext: { first.append($0) }),
      reactor.state.subscribe(onNext: { second.append($0) }),
    ]
    // when
    reactor.action.onNext(())
    // then
    XCTAssertEqual(first, [0, 1])
    XCTAssertEqual(second, [0, 1])
    XCTAssertEqual(reactor.reduceCount, 1)
    subscriptions.forEach { $0.dispose() }
  }

  func test_streams_areTheSameObjectsOnEveryAccess() {
    // given
    let reactor = CounterReactor()
    // when
    let action = reactor.action
    let state = reactor.state
    // then
    XCTAssertTrue(action === reactor.action)
    XCTAssertTrue(state === reactor.state)
  }

  func test_streams_areCreatedOnFirstAccessOnly() {
    // given
    let reactor = StageReactor()
    // when
    _ = reactor.currentState
    let countBefore = reactor.transformCount
    _ = reactor.state
    _ = reactor.action
    _ = reactor.state
    // then
    XCTAssertEqual(countBefore, 0)
    XCTAssertEqual(reactor.transformCount, 1)
  }

  // MARK: - Current state

  func test_currentState_isInitialStateBeforeStreamsExist() {
    // given
    let reactor = StageReactor()
    // when
    let state = reactor.currentState
    // then
    XCTAssertEqual(state, [])
    XCTAssertEqual(reactor.transformCount, 0)
  }

  func test_currentState_isTransformedStateAfterAction() {
    // given
    let reactor = StageReactor()
    _ = reactor.state
    // when
    reactor.action.onNext(["action"])
    // then
    XCTAssertEqual(
      reactor.currentState,
      [
        "action", "transformedAction", "mutation", "transformedMutation", "reduce",
        "transformedState",
      ])
  }

  func test_action_firstAccessCreatesStateStream() {
    // given
    let reactor = CounterReactor()
    // when
    reactor.action.onNext(())
    // then
    XCTAssertEqual(reactor.currentState, 1)
  }

  func test_currentState_isUpdatedBeforeSubscribersSeeState() {
    // given
    let reactor = CounterReactor()
    var mismatches = 0
    let subscription = reactor.state.subscribe(onNext: { state in
      if reactor.currentState != state { mismatches += 1 }
    })
    // when
    for _ in 0..<3 { reactor.action.onNext(()) }
    // then
    XCTAssertEqual(mismatches, 0)
    XCTAssertEqual(reactor.currentState, 3)
    subscription.dispose()
  }

  // MARK: - Errors and completion

  func test_action_ignoresErrorsFromBoundSources() {
    // given
    let reactor = CounterReactor()
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(100, ()), .next(200, ()), .error(300, TestError()), .next(400, ()),
    ])
    let second = scheduler.createHotObservable([
      .error(300, TestError()), .next(500, ()), .next(600, ()),
    ])
    let bag = DisposeBag()
    first.subscribe(reactor.action).disposed(by: bag)
    second.subscribe(reactor.action).disposed(by: bag)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(0, 0), .next(100, 1), .next(200, 2), .next(400, 3), .next(500, 4), .next(600, 5)])
  }

  func test_action_ignoresCompletionFromBoundSources() {
    // given
    let reactor = CounterReactor()
    let scheduler = TestScheduler(initialClock: 0)
    let first = scheduler.createHotObservable([
      .next(100, ()), .next(200, ()), .completed(300), .next(400, ()),
    ])
    let second = scheduler.createHotObservable([.completed(300), .next(500, ())])
    let bag = DisposeBag()
    first.subscribe(reactor.action).disposed(by: bag)
    second.subscribe(reactor.action).disposed(by: bag)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
    // then
    XCTAssertEqual(
      observer.events, [.next(0, 0), .next(100, 1), .next(200, 2), .next(400, 3), .next(500, 4)])
  }

  func test_mutate_errorIsIgnoredAndReactorKeepsWorking() {
    // given
    let reactor = CounterReactor()
    reactor.failAfterMutationAtState = 1
    // when
    for _ in 0..<4 { reactor.action.onNext(()) }
    // then
    XCTAssertEqual(reactor.currentState, 4)
  }

  func test_mutate_completionIsIgnoredAndReactorKeepsWorking() {
    // given
    let reactor = CounterReactor()
    reactor.completeWithoutMutationAtState = 1
    // when
    for _ in 0..<4 { reactor.action.onNext(()) }
    // then
    XCTAssertEqual(reactor.currentState, 3)
  }

  // MARK: - Mutate

  func test_mutate_defaultPassesActionWhenActionIsMutation() {
    // given
    let reactor = EchoReactor()
    // when
    reactor.action.onNext(3)
    reactor.action.onNext(4)
    // then
    XCTAssertEqual(reactor.currentState, 7)
  }

  func test_mutate_defaultProducesNothing() {
    // given
    let reactor = SilentReactor()
    // when
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(reactor.currentState, "initial")
  }

  func test_reduce_runsRightAfterEachSynchronousMutation() {
    // given
    let reactor = CharacterReactor()
    // when
    reactor.action.onNext(["a", "b"])
    reactor.action.onNext(["c"])
    reactor.action.onNext(["d", "e", "f"])
    // then
    XCTAssertEqual(reactor.currentState, ["a", "b", "c", "d", "e", "f"])
  }

  func test_mutate_asynchronousMutationsAreReducedWhenTheyArrive() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = DelayedReactor(
      mutations: scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)]))
    let actions = scheduler.createHotObservable([.next(100, ()), .next(105, ())])
    let subscription = actions.subscribe(reactor.action)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
    // then
    XCTAssertEqual(
      observer.events, [.next(0, 0), .next(110, 1), .next(115, 2), .next(120, 4), .next(125, 6)])
    subscription.dispose()
  }

  // MARK: - Transforms

  func test_transforms_defaultsReturnTheirInput() {
    // given
    let reactor = CounterReactor()
    let actions = Observable<Void>.never()
    let states = Observable<Int>.never()
    // when / then
    XCTAssertTrue(reactor.transform(action: actions) === actions)
    XCTAssertTrue(reactor.transform(mutation: actions) === actions)
    XCTAssertTrue(reactor.transform(state: states) === states)
  }

  func test_scheduler_defaultIsCurrentThreadScheduler() {
    // given
    let reactor = CounterReactor()
    // when
    let scheduler = reactor.scheduler
    // then
    XCTAssertTrue(scheduler is CurrentThreadScheduler)
  }

  func test_transformMutation_mergedSourceReachesReduce() {
    // given
    let external = PublishSubject<Int>()
    let reactor = MergingReactor(external: external)
    var received: [Int] = []
    let subscription = reactor.state.subscribe(onNext: { received.append($0) })
    // when
    reactor.action.onNext(1)
    external.onNext(10)
    reactor.action.onNext(100)
    // then
    XCTAssertEqual(received, [0, 1, 11, 111])
    subscription.dispose()
  }

  func test_transformAction_subscribingToItsInputWhileWiring_stillRunsEveryAction() {
    // given: a transform that watches its input and returns it unchanged
    let reactor = WatchingReactor()
    var received: [Int] = []
    let subscription = reactor.state.subscribe(onNext: { received.append($0) })
    // when
    reactor.action.onNext(1)
    reactor.action.onNext(2)
    // then: mutate and reduce ran for both actions
    XCTAssertEqual(received, [0, 1, 3])
    XCTAssertEqual(reactor.currentState, 3)
    subscription.dispose()
  }

  func test_transformMutation_mappedInput_reducesTheMappedMutations() {
    // given
    let reactor = DoublingReactor()
    var received: [Int] = []
    let subscription = reactor.state.subscribe(onNext: { received.append($0) })
    // when
    reactor.action.onNext(1)
    reactor.action.onNext(5)
    // then
    XCTAssertEqual(received, [0, 2, 12])
    subscription.dispose()
  }

  func test_transformState_filteredStatesDoNotBecomeCurrent() {
    // given
    let reactor = EvenStateReactor()
    var received: [Int] = []
    let subscription = reactor.state.subscribe(onNext: { received.append($0) })
    // when
    reactor.action.onNext(1)
    let afterOdd = reactor.currentState
    reactor.action.onNext(1)
    // then
    XCTAssertEqual(afterOdd, 0)
    XCTAssertEqual(reactor.currentState, 2)
    XCTAssertEqual(received, [0, 2])
    subscription.dispose()
  }

  func test_transformAction_endingSourceCompletesState() {
    // given
    let reactor = SingleActionReactor()
    var events: [Event<Int>] = []
    let subscription = reactor.state.subscribe { events.append($0) }
    // when
    reactor.action.onNext(5)
    reactor.action.onNext(7)
    // then
    XCTAssertEqual(events, [.next(0), .next(5), .completed])
    subscription.dispose()
  }

  // MARK: - Subclassing

  func test_genericSubclass_keepsOneActionSubject() {
    // given
    let reactor = ChildReactor()
    // when
    let before = reactor.action
    _ = reactor.state
    let after = reactor.action
    // then
    XCTAssertTrue(before === after)
  }

  func test_genericSubclass_accessingActionCreatesState() {
    // given
    let reactor = ChildReactor()
    XCTAssertEqual(reactor.currentState, 0)
    // when
    reactor.action.onNext(.increase)
    // then
    XCTAssertEqual(reactor.currentState, 1)
    XCTAssertEqual((reactor as ParentReactor<String>).currentState, 1)
  }
}

// MARK: - Fakes

/// Records each pipeline stage in the state.
private final class StageReactor: Reactor {
  typealias Action = [String]
  typealias Mutation = [String]
  typealias State = [String]

  let initialState: State = []
  var transformCount = 0

  func transform(action: Observable<Action>) -> Observable<Action> {
    transformCount += 1
    return action.map { $0 + ["transformedAction"] }
  }

  func mutate(action: Action) -> Observable<Mutation> {
    .just(action + ["mutation"])
  }

  func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    mutation.map { $0 + ["transformedMutation"] }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    state + mutation + ["reduce"]
  }

  func transform(state: Observable<State>) -> Observable<State> {
    state.map { $0 + ["transformedState"] }
  }
}

/// Counts actions; can make `mutate` fail after its mutation, or complete once without one,
/// at a given state.
private final class CounterReactor: Reactor {
  typealias Action = Void
  typealias Mutation = Void
  typealias State = Int

  let initialState = 0
  var failAfterMutationAtState: Int?
  var completeWithoutMutationAtState: Int?
  var reduceCount = 0

  func mutate(action: Void) -> Observable<Void> {
    if currentState == failAfterMutationAtState {
      return .create { observer in
        observer.onNext(())
        observer.onError(TestError())
        return Disposables.create()
      }
    }
    if currentState == completeWithoutMutationAtState {
      completeWithoutMutationAtState = nil
      return .empty()
    }
    return .just(())
  }

  func reduce(state: Int, mutation: Void) -> Int {
    reduceCount += 1
    return state + 1
  }
}

/// `Action == Mutation`, no `mutate`.
private final class EchoReactor: Reactor {
  typealias Action = Int
  typealias State = Int
  let initialState = 0

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Distinct `Mutation`, default `mutate`.
private final class SilentReactor: Reactor {
  typealias Action = Int
  typealias Mutation = String
  typealias State = String
  let initialState = "initial"

  func reduce(state: String, mutation: String) -> String { mutation }
}

/// Each mutation is computed from `currentState` when its source is subscribed.
private final class CharacterReactor: Reactor {
  typealias Action = [String]
  typealias Mutation = [String]
  typealias State = [String]
  let initialState: State = []

  func mutate(action: Action) -> Observable<Mutation> {
    .create { [weak self] observer in
      for character in action {
        guard let self else { break }
        observer.onNext(self.currentState + [character])
      }
      observer.onCompleted()
      return Disposables.create()
    }
  }

  func reduce(state: State, mutation: Mutation) -> State { mutation }
}

/// Returns the same (cold) sequence of increments for every action.
private final class DelayedReactor: Reactor {
  typealias Action = Void
  typealias Mutation = Int
  typealias State = Int
  let initialState = 0
  private let mutations: Observable<Int>

  init(mutations: TestableObservable<Int>) {
    self.mutations = mutations.asObservable()
  }

  func mutate(action: Void) -> Observable<Int> { mutations }
  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Merges an external source into the mutations without any merge operator.
private final class MergingReactor: Reactor {
  typealias Action = Int
  typealias State = Int
  let initialState = 0
  private let external: PublishSubject<Int>

  init(external: PublishSubject<Int>) {
    self.external = external
  }

  func transform(mutation: Observable<Int>) -> Observable<Int> {
    let external = self.external
    return .create { observer in
      Disposables.create(mutation.subscribe(observer), external.subscribe(observer))
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Publishes only even states.
private final class EvenStateReactor: Reactor {
  typealias Action = Int
  typealias State = Int
  let initialState = 0

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
  func transform(state: Observable<Int>) -> Observable<Int> { state.filter { $0 % 2 == 0 } }
}

/// Its transformed action stream ends after the first action.
private final class SingleActionReactor: Reactor {
  typealias Action = Int
  typealias State = Int
  let initialState = 0

  func transform(action: Observable<Int>) -> Observable<Int> {
    .create { observer in
      action.subscribe { event in
        observer.on(event)
        if case .next = event { observer.onCompleted() }
      }
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

private class ParentReactor<Tag>: Reactor {
  enum Action { case increase }
  typealias Mutation = Void
  typealias State = Int
  let initialState = 0

  func mutate(action: Action) -> Observable<Mutation> { .just(()) }
  func reduce(state: State, mutation: Mutation) -> State { state + 1 }
}

private final class ChildReactor: ParentReactor<String> {}

/// Subscribes to its action input inside `transform(action:)` and returns it unchanged.
private final class WatchingReactor: Reactor {
  typealias Action = Int
  typealias State = Int

  let initialState = 0
  private let bag = DisposeBag()

  func transform(action: Observable<Int>) -> Observable<Int> {
    action.subscribe(onNext: { _ in }).disposed(by: bag)
    return action
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Doubles every mutation in `transform(mutation:)`.
private final class DoublingReactor: Reactor {
  typealias Action = Int
  typealias State = Int

  let initialState = 0

  func transform(mutation: Observable<Int>) -> Observable<Int> {
    mutation.map { $0 * 2 }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}
