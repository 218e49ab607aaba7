import ReactorKit
import ReactorKitStreams
import ReactorKitTesting
import Testing
import XCTest

/// The TestStore listings of Documentation/Testing.md ("Effects on a `TestScheduler`",
/// "Effects in virtual time"), run as written (the first with `finish(timeout: 0)`, so that a
/// running effect fails at once): `scripts/doc-check.sh` only compiles them, and a listing
/// that compiles can still fail (the first one did once `finish()` checked running effects).
final class TestingGuideSchedulerExampleTests: XCTestCase {
  func test_query_theLatestWins() {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)  // 1 tick = 1 ms
    let store = TestStore(
      reducer: GuideSearch.reducer, state: GuideSearch(),
      middleware: [GuideSearch.effects(scheduler: scheduler)])

    store.send(GuideSearchAction.query("s")) { $0.query = "s" }
    scheduler.advance(by: .milliseconds(500))  // "s" is still in flight…
    store.send(GuideSearchAction.query("sw")) { $0.query = "sw" }  // …and is cancelled here
    scheduler.advance(by: .seconds(1))
    store.receive(GuideSearchAction.results(["SW"])) { $0.results = ["SW"] }
    scheduler.start()  // runs what is left: the delay ends one tick after its element
    store.finish(timeout: 0)
  }
}

@MainActor
@Test func guideStopwatch_ticksEverySecond() async {
  let scheduler = TestScheduler(initialClock: 0)
  let clock = TestClock(scheduler: scheduler)
  let store = TestStore(
    reducer: GuideStopwatch.reducer, state: GuideStopwatch(),
    middleware: [GuideStopwatch.effects(clock: clock)])

  store.send(GuideStopwatchAction.start) { $0.isRunning = true }
  await clock.advance(by: .seconds(2))
  await store.receive(GuideStopwatchAction.tick) { $0.seconds = 1 }
  await store.receive(GuideStopwatchAction.tick) { $0.seconds = 2 }
  store.send(GuideStopwatchAction.stop) { $0.isRunning = false }
  await clock.advance(by: .seconds(10))  // cancelled: no more ticks
  await store.finish()
}

// MARK: - The guide's features

private struct GuideSearch: Equatable {
  var query = ""
  var results: [String] = []
}

private enum GuideSearchAction: Action, Equatable {
  case query(String)
  case results([String])
}

private enum GuideSearchEffect: Hashable, Sendable { case search }

extension GuideSearch {
  static let reducer = Reducer<GuideSearch>.on(GuideSearchAction.self) { state, action in
    switch action {
    case .query(let text): state.query = text
    case .results(let results): state.results = results
    }
  }

  /// Answers a query after a second; a newer query cancels the one in flight.
  static func effects(scheduler: SchedulerType) -> Middleware<GuideSearch> {
    .effects(on: GuideSearchAction.self) { action, _ in
      guard case .query(let text) = action else { return .none }
      return Effect(
        Observable.just(GuideSearchAction.results([text.uppercased()]))
          .delay(.seconds(1), scheduler: scheduler)
      )
      .cancellable(id: GuideSearchEffect.search, cancelInFlight: true)
    }
  }
}

private struct GuideStopwatch: Equatable {
  var isRunning = false
  var seconds = 0
}

private enum GuideStopwatchAction: Action, Equatable { case start, stop, tick }
private enum GuideStopwatchEffect: Hashable, Sendable { case timer }

extension GuideStopwatch {
  static let reducer = Reducer<GuideStopwatch>.on(GuideStopwatchAction.self) { state, action in
    switch action {
    case .start: state.isRunning = true
    case .stop: state.isRunning = false
    case .tick: state.seconds += 1
    }
  }

  /// Ticks every second on `clock` from `.start` until `.stop`.
  static func effects(clock: any Clock<Duration>) -> Middleware<GuideStopwatch> {
    .effects(on: GuideStopwatchAction.self) { action, _ in
      switch action {
      case .start:
        return .run { send in
          while true {
            try await clock.sleep(for: .seconds(1))
            send(GuideStopwatchAction.tick)
          }
        }
        .cancellable(id: GuideStopwatchEffect.timer, cancelInFlight: true)
      case .stop:
        return .cancel(id: GuideStopwatchEffect.timer)
      case .tick:
        return .none
      }
    }
  }
}

/// The `ReactorTestStore` listing of Documentation/Testing.md ("Every mutation,
/// exhaustively"), run as written: the guide's claim about when the delayed `just` completes
/// is checked here.
final class TestingGuideReactorTestStoreExampleTests: ResourceTestCase {
  private final class DelayedCounterReactor: Reactor {
    enum Action { case increase }
    enum Mutation: Equatable {
      case setLoading(Bool)
      case add(Int)
    }
    struct State: Equatable {
      var count = 0
      var isLoading = false
    }

    let initialState = State()
    private let scheduler: SchedulerType

    init(scheduler: SchedulerType) { self.scheduler = scheduler }

    func mutate(action: Action) -> Observable<Mutation> {
      .concat(
        .just(.setLoading(true)),
        Observable.just(.add(1)).delay(.seconds(2), scheduler: scheduler),
        .just(.setLoading(false)))
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var state = state
      switch mutation {
      case .setLoading(let isLoading): state.isLoading = isLoading
      case .add(let amount): state.count += amount
      }
      return state
    }
  }

  func test_increase_loadsThenAddsOne() {
    let failures = FailureLog()
    let scheduler = TestScheduler(initialClock: 0)
    let store = ReactorTestStore(reactor: DelayedCounterReactor(scheduler: scheduler))
    store.reportFailure = failures.record
    store.send(.increase)
    store.receive(.setLoading(true)) { $0.isLoading = true }
    scheduler.advance(by: .seconds(2))
    store.receive(.add(1)) { $0.count = 1 }
    scheduler.advance(by: .seconds(1))
    store.receive(.setLoading(false)) { $0.isLoading = false }
    store.finish(timeout: 0)
    XCTAssertEqual(failures.messages, [])
  }
}
