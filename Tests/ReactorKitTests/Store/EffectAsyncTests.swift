import Foundation
import ReactorKit
import ReactorKitTesting
import Testing

/// Async effects (`Effect.run`, a reactor's `run`) in virtual time with a `TestClock`, and
/// `TestStore`'s async `receive`, in `@MainActor` Swift Testing tests.
@MainActor
@Suite struct EffectAsyncTests {
  // MARK: - TestClock

  @Test func testClock_sleepEndsWhenTheSchedulerReachesTheDeadline() async throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let woke = Flag()
    let sleeper = Task { @MainActor in
      try await clock.sleep(for: .seconds(3))
      woke.set()
    }
    // when
    await clock.advance(by: .seconds(2))
    // then
    #expect(!woke.isSet)
    #expect(clock.sleepCount == 1)
    // when
    await clock.advance(by: .seconds(1))
    // then
    #expect(woke.isSet)
    #expect(clock.sleepCount == 0)
    #expect(scheduler.clock == 3)
    try await sleeper.value
  }

  @Test func testClock_advancingTheSchedulerEndsTheSleep() async throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let sleeper = Task { @MainActor in try await clock.sleep(for: .seconds(5)) }
    await clock.advance()  // the task reaches its sleep
    #expect(clock.sleepCount == 1)
    // when
    scheduler.advance(by: .seconds(5))
    // then: the task resumes on its executor
    try await sleeper.value
    #expect(clock.now == TestClock.Instant(offset: .seconds(5)))
  }

  @Test func testClock_cancellingTheTaskEndsTheSleepWithCancellationError() async {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let sleeper = Task { @MainActor in try await clock.sleep(for: .seconds(5)) }
    await clock.advance()
    // when
    sleeper.cancel()
    // then
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleepCount == 0)
    scheduler.start()
    #expect(scheduler.clock == 0, "The cancelled sleep left nothing on the scheduler.")
  }

  @Test func testClock_sleepInACancelledTaskThrowsAtOnce() async {
    // given
    let clock = TestClock(scheduler: TestScheduler(initialClock: 0))
    let sleeper = Task { @MainActor in
      unsafe withUnsafeCurrentTask { unsafe $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    // then
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(clock.sleepCount == 0)
  }

  @Test func testClock_aLoopIsWokenAtEachDeadline_withFinerResolution() async {
    // given: 1 unit = 1 ms
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    let clock = TestClock(scheduler: scheduler)
    let times = Times()
    let loop = Task { @MainActor in
      for _ in 0..<3 {
        try? await clock.sleep(for: .milliseconds(250))
        times.append(scheduler.clock)
      }
    }
    // when
    await clock.advance(by: .seconds(1))
    // then
    #expect(times.values == [250, 500, 750])
    #expect(scheduler.clock == 1_000)
    await loop.value
  }

  @Test func testClock_sharesTheTimelineWithTheSchedulersTimers() async {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let order = Times()
    let timer = Observable<Int>.timer(.seconds(2), scheduler: scheduler)
      .subscribe(onNext: { _ in order.append(-scheduler.clock) })
    let sleeper = Task { @MainActor in
      try? await clock.sleep(for: .seconds(1))
      order.append(scheduler.clock)
      try? await clock.sleep(for: .seconds(2))
      order.append(scheduler.clock)
    }
    // when
    await clock.advance(by: .seconds(5))
    // then: the sleep at 1, the timer at 2, the sleep at 3
    #expect(order.values == [1, -2, 3])
    timer.dispose()
    await sleeper.value
  }

  // MARK: - Store effects with a clock

  @Test func effectRun_ticksInVirtualTime() async {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let store = TestStore(
      reducer: timerReducer, state: TimerState(), middleware: [timerEffects(clock: clock)])
    // when
    store.send(TimerAction.start) { $0.isRunning = true }
    await clock.advance(by: .seconds(1))
    // then
    await store.receive(TimerAction.tick) { $0.ticks = 1 }
    // when
    await clock.advance(by: .seconds(2))
    // then
    await store.receive(TimerAction.tick) { $0.ticks = 2 }
    await store.receive(TimerAction.tick) { $0.ticks = 3 }
    // when
    store.send(TimerAction.stop) { $0.isRunning = false }
    await clock.advance(by: .seconds(10))
    // then: cancelled, nothing more
    await store.finish()
    #expect(clock.sleepCount == 0)
  }

  @Test func effectRun_latestWinsCancelsTheSleepingTask() async {
    // given: a search debounced by sleeping half a second
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.1)
    let clock = TestClock(scheduler: scheduler)
    let store = TestStore(
      reducer: searchReducer, state: AsyncSearchState(),
      middleware: [
        .effects(on: AsyncSearchAction.self) { action, _ in
          guard case .query(let text) = action else { return .none }
          return .run { send in
            try await clock.sleep(for: .milliseconds(500))
            send(AsyncSearchAction.results([text.uppercased()]))
          }
          .cancellable(id: AsyncSearchEffect.search, cancelInFlight: true)
        }
      ])
    // when
    store.send(AsyncSearchAction.query("a")) { $0.query = "a" }
    await clock.advance(by: .milliseconds(300))
    store.send(AsyncSearchAction.query("ab")) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(300))
    // then: the first search was cancelled; the second still sleeps
    #expect(clock.sleepCount == 1)
    await clock.advance(by: .milliseconds(200))
    // the first action received is the second search's: the first one sent nothing
    await store.receive(AsyncSearchAction.results(["AB"])) { $0.results = ["AB"] }
    await store.finish()
  }

  @Test func effectRun_errorsBecomeActionsThroughCatch() async {
    // given
    let store = TestStore(
      reducer: searchReducer, state: AsyncSearchState(),
      middleware: [
        .effects(on: AsyncSearchAction.self) { action, _ in
          guard case .query = action else { return .none }
          return .run { _ in
            throw URLError(.notConnectedToInternet)
          } catch: { _, send in
            send(AsyncSearchAction.results(["offline"]))
          }
        }
      ])
    // when
    store.send(AsyncSearchAction.query("a")) { $0.query = "a" }
    // then
    await store.receive(AsyncSearchAction.results(["offline"])) { $0.results = ["offline"] }
    await store.finish()
  }

  @Test func effectRun_storeFreed_cancelsTheTask() async {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    var store: Store<TimerState>? = Store(
      reducer: timerReducer, state: TimerState(), middleware: [timerEffects(clock: clock)])
    store?.dispatch(TimerAction.start)
    await clock.advance()
    #expect(clock.sleepCount == 1)
    // when
    store = nil
    await clock.advance()
    // then
    #expect(clock.sleepCount == 0, "Freeing the store cancelled the effect's task.")
  }

  // MARK: - Reactors with a clock

  @Test func reactorRun_sleepsInVirtualTime() async {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let clock = TestClock(scheduler: scheduler)
    let reactor = CountdownReactor(clock: clock)
    // when
    reactor.action.onNext(.start(3))
    await clock.advance()
    // then
    #expect(reactor.currentState == 3)
    // when
    await clock.advance(by: .seconds(2))
    // then
    #expect(reactor.currentState == 1)
    // when
    await clock.advance(by: .seconds(1))
    // then
    #expect(reactor.currentState == 0)
    #expect(clock.sleepCount == 0)
  }

  @Test func reactorRun_catchTurnsAnErrorIntoMutations() async throws {
    // given
    let reactor = CountdownReactor(clock: ContinuousClock())
    // when
    let mutations = reactor.run(scheduler: CurrentThreadScheduler.instance) { send in
      send(1)
      throw URLError(.timedOut)
    } catch: { _, send in
      send(-1)
    }
    var events: [Event<Int>]?
    for try await recorded in mutations.materialize().toArray().values { events = recorded }
    // then
    #expect(events == [.next(1), .next(-1), .completed])
  }

  @Test func reactorRun_anErrorWithoutCatch_failsTheSequence() async throws {
    // given
    let reactor = CountdownReactor(clock: ContinuousClock())
    // when
    let mutations = reactor.run(scheduler: CurrentThreadScheduler.instance) { send in
      send(1)
      throw URLError(.timedOut)
    }
    var events: [Event<Int>]?
    for try await recorded in mutations.materialize().toArray().values { events = recorded }
    // then
    #expect(events?.count == 2)
    #expect(events?.first?.element == 1)
    #expect(events?.last?.error is URLError)
  }

  // MARK: - Async receive

  @Test func asyncReceive_waitsForAnActionDispatchedFromTheMainActor() async {
    // given: an effect that hops to the main actor before it answers
    let store = TestStore(
      reducer: searchReducer, state: AsyncSearchState(),
      middleware: [
        .effects(on: AsyncSearchAction.self) { action, _ in
          guard case .query(let text) = action else { return .none }
          return .run { send in
            await Task.yield()
            send(AsyncSearchAction.results([text]))
          }
        }
      ])
    // when
    store.send(AsyncSearchAction.query("a")) { $0.query = "a" }
    // then
    await store.receive(AsyncSearchAction.results(["a"]), timeout: .seconds(10)) {
      $0.results = ["a"]
    }
    await store.finish()
  }

  @Test func asyncReceive_predicateFormAndAnActionFromAnotherThread() async {
    // given
    let store = TestStore(
      reducer: searchReducer, state: AsyncSearchState(),
      middleware: [
        .effects(on: AsyncSearchAction.self) { action, _ in
          guard case .query(let text) = action else { return .none }
          return Effect(
            Observable.just(AsyncSearchAction.results([text]))
              .delay(.milliseconds(20), scheduler: ConcurrentDispatchQueueScheduler(qos: .utility))
          )
        }
      ])
    // when
    store.send(AsyncSearchAction.query("b")) { $0.query = "b" }
    // then
    await store.receive(
      { $0 is AsyncSearchAction }, timeout: .seconds(10), assert: { $0.results = ["b"] })
    await store.finish()
  }

  @Test func asyncReceive_timeout_failsWithAFullSentence() async {
    // given
    let store = TestStore(reducer: searchReducer, state: AsyncSearchState())
    let failures = Failures()
    store.reportFailure = failures.record
    // when
    let start = ContinuousClock.now
    await store.receive(AsyncSearchAction.results(["x"]), timeout: .milliseconds(100))
    // then
    #expect(ContinuousClock.now - start < .seconds(5))
    #expect(
      failures.messages == [
        "Expected to receive AsyncSearchAction.results([\"x\"]), but no action was received "
          + "within 0.1 seconds."
      ])
  }

  @Test func asyncReceive_wrongAction_failsNamingBoth() async {
    // given
    let store = TestStore(
      reducer: searchReducer, state: AsyncSearchState(),
      middleware: [
        .effects(on: AsyncSearchAction.self) { action, _ in
          guard case .query = action else { return .none }
          return .send(AsyncSearchAction.results(["actual"]))
        }
      ])
    let failures = Failures()
    store.reportFailure = failures.record
    // when
    store.send(AsyncSearchAction.query("a")) { $0.query = "a" }
    await store.receive(AsyncSearchAction.results(["expected"]))
    // then
    #expect(
      failures.messages == [
        "Expected to receive AsyncSearchAction.results([\"expected\"]), but received "
          + "AsyncSearchAction.results([\"actual\"])."
      ])
  }

  @Test func asyncReceive_cancelledTest_failsAtOnce() async {
    // given
    let store = TestStore(reducer: searchReducer, state: AsyncSearchState())
    let failures = Failures()
    store.reportFailure = failures.record
    // when
    let start = ContinuousClock.now
    let waiting = Task { @MainActor in
      await store.receive(AsyncSearchAction.results([]), timeout: .seconds(30))
    }
    await Task.yield()
    waiting.cancel()
    await waiting.value
    // then
    #expect(ContinuousClock.now - start < .seconds(10))
    #expect(
      failures.messages == [
        "Expected to receive AsyncSearchAction.results([]), but the test was cancelled before "
          + "an action was received."
      ])
  }
}

// MARK: - Fixtures

private enum TimerAction: Action, Equatable {
  case start, stop, tick
}

private enum TimerEffect: Hashable, Sendable {
  case timer
}

private struct TimerState: Equatable {
  var isRunning = false
  var ticks = 0
}

private let timerReducer = Reducer<TimerState>.on(TimerAction.self) { state, action in
  switch action {
  case .start: state.isRunning = true
  case .stop: state.isRunning = false
  case .tick: state.ticks += 1
  }
}

/// Ticks every second on `clock` from `.start` until `.stop`.
private func timerEffects(clock: any Clock<Duration>) -> Middleware<TimerState> {
  .effects(on: TimerAction.self) { action, _ in
    switch action {
    case .start:
      return .run { send in
        while true {
          try await clock.sleep(for: .seconds(1))
          send(TimerAction.tick)
        }
      }
      .cancellable(id: TimerEffect.timer, cancelInFlight: true)
    case .stop:
      return .cancel(id: TimerEffect.timer)
    case .tick:
      return .none
    }
  }
}

private enum AsyncSearchAction: Action, Equatable {
  case query(String)
  case results([String])
}

private enum AsyncSearchEffect: Hashable, Sendable {
  case search
}

private struct AsyncSearchState: Equatable {
  var query = ""
  var results: [String] = []
}

private let searchReducer = Reducer<AsyncSearchState>.on(AsyncSearchAction.self) {
  state, action in
  switch action {
  case .query(let text): state.query = text
  case .results(let results): state.results = results
  }
}

/// Counts down once a second on the clock it is given.
private final class CountdownReactor: Reactor {
  enum Action { case start(Int) }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  private let clock: any Clock<Duration>

  init(clock: any Clock<Duration>) { self.clock = clock }

  func mutate(action: Action) -> Observable<Int> {
    switch action {
    case .start(let seconds):
      let clock = self.clock
      return run { send in
        for remaining in stride(from: seconds, through: 0, by: -1) {
          send(remaining)
          if remaining > 0 { try await clock.sleep(for: .seconds(1)) }
        }
      }
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { mutation }
}

@MainActor
private final class Flag {
  private(set) var isSet = false
  func set() { isSet = true }
}

@MainActor
private final class Times {
  private(set) var values: [Int] = []
  func append(_ value: Int) { values.append(value) }
}

@MainActor
private final class Failures {
  private(set) var messages: [String] = []
  func record(_ failure: TestStoreFailure) { messages.append(failure.message) }
}
