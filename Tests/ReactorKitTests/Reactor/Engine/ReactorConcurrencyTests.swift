import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// Engine: ReactorCore.swift, ReactorCore+Path.swift and ReactorCore+Drain.swift (the gate: one thread processes at a time, nothing lost).
final class ReactorConcurrencyTests: ResourceTestCase {
  func test_action_sentFromEightThreads_reducesEachActionOnceAndOneAtATime() {
    // given
    let reactor = TallyReactor()
    let perThread = 1_000
    _ = reactor.state
    // when
    runConcurrently(threads: 8) { thread in
      let action = reactor.action
      for index in 0..<perThread { action.onNext(thread * perThread + index) }
    }
    // then
    let seen = reactor.currentState.seen
    XCTAssertEqual(seen.count, 8 * perThread)
    XCTAssertEqual(Set(seen), Set(0..<(8 * perThread)))
    XCTAssertEqual(reactor.overlap.maximumOverlap, 1, "reduce ran concurrently")
    XCTAssertEqual(reactor.mutateOverlap.maximumOverlap, 1, "mutate ran concurrently")
  }

  func test_action_fromThreadsWhileReduceSendsFollowUps_runsEveryActionOnceOneAtATime() {
    // given: each action sent from outside makes `reduce` send one follow-up action, so idle
    // claims, queued actions and reentrant sends race for the same reactor
    let reactor = FollowUpReactor()
    let perThread = 500
    _ = reactor.state
    // when
    runConcurrently(threads: 4) { thread in
      let action = reactor.action
      for index in 0..<perThread {
        action.onNext(thread * perThread + index)
        if index % 7 == 0 { sched_yield() }
      }
    }
    // then
    let seen = reactor.currentState.seen
    let sent = Set(0..<(4 * perThread))
    XCTAssertEqual(seen.count, 2 * sent.count)
    XCTAssertEqual(Set(seen), sent.union(sent.map { $0 + FollowUpReactor.followUpOffset }))
    for value in sent {
      let original = seen.firstIndex(of: value)
      let followUp = seen.firstIndex(of: value + FollowUpReactor.followUpOffset)
      XCTAssertLessThan(original ?? .max, followUp ?? .min, "follow-up of \(value) ran first")
    }
    XCTAssertEqual(reactor.overlap.maximumOverlap, 1, "reduce ran concurrently")
  }

  func test_action_fromEachThreadKeepsItsOwnOrder() {
    // given
    let reactor = TallyReactor()
    let perThread = 500
    // when
    runConcurrently(threads: 4) { thread in
      for index in 0..<perThread { reactor.action.onNext(thread * perThread + index) }
    }
    // then
    let seen = reactor.currentState.seen
    for thread in 0..<4 {
      let mine = seen.filter { $0 / perThread == thread }
      XCTAssertEqual(mine, Array((thread * perThread)..<((thread + 1) * perThread)))
    }
  }

  func test_state_firstAccessFromManyThreads_createsOneStream() {
    // given
    let reactor = SlowStartReactor()
    let states = Locked<[Observable<Int>]>([])
    let actions = Locked<[ActionSubject<Int>]>([])
    // when
    runConcurrently(threads: 8) { thread in
      if thread.isMultiple(of: 2) {
        let state = reactor.state
        states.withLock { $0.append(state) }
      } else {
        let action = reactor.action
        actions.withLock { $0.append(action) }
      }
    }
    // then
    XCTAssertEqual(reactor.transformCount.current, 1)
    let allStates = states.current
    let allActions = actions.current
    XCTAssertEqual(allStates.count, 4)
    XCTAssertTrue(allStates.allSatisfy { $0 === allStates[0] })
    XCTAssertTrue(allActions.allSatisfy { $0 === allActions[0] })
  }

  func test_action_sentDuringStreamCreationOnAnotherThread_isNotLost() {
    // given
    let reactor = SlowStartReactor()
    // when
    runConcurrently(threads: 4) { _ in
      reactor.action.onNext(1)
    }
    // then
    let deadline = Date().addingTimeInterval(5)
    while reactor.currentState != 4 && Date() < deadline { usleep(1_000) }
    XCTAssertEqual(reactor.currentState, 4)
  }

  func test_asynchronousMutationsFromManyThreads_areReducedOneAtATime() {
    // given
    let reactor = BackgroundReactor()
    let done = expectation(description: "all mutations reduced")
    let subscription = reactor.state.subscribe(onNext: { state in
      if state == 8 * 200 { done.fulfill() }
    })
    // when
    for _ in 0..<8 { reactor.action.onNext(200) }
    // then
    wait(for: [done], timeout: 10)
    XCTAssertEqual(reactor.overlap.maximumOverlap, 1, "reduce ran concurrently")
    subscription.dispose()
  }

  func test_scheduler_reducesAndDeliversStatesOnTheReactorsScheduler() {
    // given
    let queue = DispatchQueue(label: "reactor-tests.scheduler")
    let key = DispatchSpecificKey<Int>()
    queue.setSpecific(key: key, value: 1)
    let reactor = QueueReactor(
      scheduler: SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "reactor"),
      key: key)
    let delivered = Locked<[Bool]>([])
    let done = expectation(description: "states delivered")
    let subscription = reactor.state.subscribe(onNext: { _ in
      let onQueue = DispatchQueue.getSpecific(key: key) == 1
      let count = delivered.withLock {
        $0.append(onQueue)
        return $0.count
      }
      if count == 11 { done.fulfill() }
    })
    // when
    for _ in 0..<10 { reactor.action.onNext(()) }
    // then
    wait(for: [done], timeout: 5)
    let onQueue = delivered.current
    XCTAssertEqual(onQueue.first, false, "the initial state is replayed on the subscribing thread")
    XCTAssertEqual(Array(onQueue.dropFirst()), Array(repeating: true, count: 10))
    XCTAssertEqual(reactor.currentState.reducedOnQueue, Array(repeating: true, count: 10))
    subscription.dispose()
  }
}

// MARK: - Fakes

/// Records every action value; checks that `mutate` and `reduce` never overlap.
private final class TallyReactor: Reactor, @unchecked Sendable {
  typealias Action = Int

  struct State {
    var seen: [Int] = []
  }

  let initialState = State()
  let overlap = OverlapDetector()
  let mutateOverlap = OverlapDetector()

  func mutate(action: Int) -> Observable<Int> {
    mutateOverlap.visit { .just(action) }
  }

  func reduce(state: State, mutation: Int) -> State {
    overlap.visit {
      sched_yield()
      var state = state
      state.seen.append(mutation)
      return state
    }
  }
}

/// Records every action; `reduce` sends one follow-up action for each action from outside.
private final class FollowUpReactor: Reactor, @unchecked Sendable {
  typealias Action = Int

  static let followUpOffset = 1_000_000

  struct State {
    var seen: [Int] = []
  }

  let initialState = State()
  let overlap = OverlapDetector()

  func reduce(state: State, mutation: Int) -> State {
    overlap.visit {
      var state = state
      state.seen.append(mutation)
      if mutation < Self.followUpOffset { action.onNext(mutation + Self.followUpOffset) }
      return state
    }
  }
}

/// Takes a while to build its streams, so several threads meet during creation.
private final class SlowStartReactor: Reactor, @unchecked Sendable {
  typealias Action = Int
  typealias State = Int

  let initialState = 0
  let transformCount = Locked(0)

  func transform(action: Observable<Int>) -> Observable<Int> {
    transformCount.withLock { $0 += 1 }
    usleep(50_000)
    return action
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Each action emits its mutations from a background queue.
private final class BackgroundReactor: Reactor, @unchecked Sendable {
  typealias Action = Int
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  let overlap = OverlapDetector()

  func mutate(action count: Int) -> Observable<Int> {
    .create { observer in
      let sendable = UncheckedBox(observer)
      DispatchQueue.global().async {
        for _ in 0..<count { sendable.value.onNext(1) }
        sendable.value.onCompleted()
      }
      return Disposables.create()
    }
  }

  func reduce(state: Int, mutation: Int) -> Int {
    overlap.visit {
      sched_yield()
      return state + mutation
    }
  }
}

/// Runs on a given scheduler and records whether each reduction ran on its queue.
private final class QueueReactor: Reactor, @unchecked Sendable {
  typealias Action = Void
  typealias Mutation = Void

  struct State {
    var reducedOnQueue: [Bool] = []
  }

  let initialState = State()
  let scheduler: ImmediateSchedulerType
  private let key: DispatchSpecificKey<Int>

  init(scheduler: ImmediateSchedulerType, key: DispatchSpecificKey<Int>) {
    self.scheduler = scheduler
    self.key = key
  }

  func reduce(state: State, mutation: Void) -> State {
    var state = state
    state.reducedOnQueue.append(DispatchQueue.getSpecific(key: key) == 1)
    return state
  }
}
