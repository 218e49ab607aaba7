import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// Engine: ReactorCore+Stages.swift (inner mutation streams and their disposal).
final class ReactorCancellationTests: ResourceTestCase {
  func test_takeUntil_stopActionEndsRunningInterval() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = StopwatchReactor(
      ticks: Observable<Int>.interval(.seconds(1), scheduler: scheduler))
    let bag = DisposeBag()
    scheduler
      .createHotObservable([
        .next(1, .start), .next(5, .stop), .next(6, .start), .next(9, .stop),
      ])
      .subscribe(reactor.action)
      .disposed(by: bag)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 20) { reactor.state }
    // then
    XCTAssertEqual(
      observer.events,
      [.next(0, 0), .next(2, 1), .next(3, 2), .next(4, 3), .next(7, 4), .next(8, 5)])
  }

  func test_takeUntil_stopActionUnsubscribesRunningMutation() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let ticks = scheduler.createColdObservable((1...10).map { Recorded.next($0, 1) })
    let reactor = StopwatchReactor(ticks: ticks.asObservable())
    let actions = scheduler.createHotObservable([
      Recorded.next(10, StopwatchReactor.Action.start), .next(14, .stop), .next(20, .start),
      .next(22, .stop),
    ])
    let binding = actions.subscribe(reactor.action)
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 100) { reactor.state }
    // then
    XCTAssertEqual(ticks.subscriptions, [Subscription(10, 14), Subscription(20, 22)])
    XCTAssertEqual(observer.events.last, .next(21, 4))
    binding.dispose()
  }

  func test_flatMapLatest_newSelectionUnsubscribesPreviousMutation() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let selections = scheduler.createHotObservable([.next(110, 1), .next(130, 2)])
    let first = scheduler.createColdObservable([.next(5, "a1"), .next(30, "a2")])
    let second = scheduler.createColdObservable([.next(5, "b1"), .next(30, "b2")])
    let reactor = DetailReactor(selections: selections.asObservable()) { id in
      (id == 1 ? first : second).asObservable()
    }
    scheduler.scheduleAt(100) { reactor.action.onNext(.watch) }
    // when
    let observer = scheduler.start(created: 0, subscribed: 0, disposed: 1000) { reactor.state }
    // then
    XCTAssertEqual(
      observer.events,
      [
        .next(0, []), .next(115, ["a1"]), .next(135, ["a1", "b1"]), .next(160, ["a1", "b1", "b2"]),
      ])
    XCTAssertEqual(first.subscriptions, [Subscription(110, 130)])
    XCTAssertEqual(second.subscriptions, [Subscription(130)])
  }

  func test_takeUntil_cancelsRunningTask() {
    // given
    let reactor = SearchReactor()
    let cancelled = expectation(description: "first search cancelled")
    let started = expectation(description: "first search started")
    reactor.onStart = { query in if query == "a" { started.fulfill() } }
    reactor.onCancel = { query in if query == "a" { cancelled.fulfill() } }
    reactor.action.onNext(.search("a"))
    wait(for: [started], timeout: 5)
    // when
    reactor.action.onNext(.search("b"))
    // then
    wait(for: [cancelled], timeout: 5)
    XCTAssertEqual(reactor.currentState.cancelled, [])
  }

  func test_flatMapLatest_cancelsRunningTask() {
    // given
    let selections = PublishSubject<Int>()
    let reactor = TaskDetailReactor(selections: selections)
    let cancelled = expectation(description: "first load cancelled")
    let loaded = expectation(description: "second load delivered")
    reactor.onCancel = { id in if id == 1 { cancelled.fulfill() } }
    let subscription = reactor.state.subscribe(onNext: { state in
      if state == [2] { loaded.fulfill() }
    })
    reactor.action.onNext(.watch)
    selections.onNext(1)
    // when
    selections.onNext(2)
    reactor.release(2)
    // then
    wait(for: [cancelled, loaded], timeout: 5)
    XCTAssertEqual(reactor.currentState, [2])
    subscription.dispose()
  }
}

// MARK: - Fakes

/// Counts ticks between `.start` and `.stop`.
private final class StopwatchReactor: Reactor {
  enum Action { case start, stop }
  typealias Mutation = Int
  typealias State = Int

  let initialState = 0
  private let ticks: Observable<Int>

  init(ticks: Observable<Int>) {
    self.ticks = ticks
  }

  func mutate(action: Action) -> Observable<Int> {
    switch action {
    case .start:
      return ticks.map { _ in 1 }.take(until: self.action.filter { $0 == .stop })
    case .stop:
      return .empty()
    }
  }

  func reduce(state: Int, mutation: Int) -> Int { state + mutation }
}

/// Shows the details of the latest selection; switching cancels the previous load.
private final class DetailReactor: Reactor {
  enum Action { case watch }
  typealias Mutation = String
  typealias State = [String]

  let initialState: State = []
  private let selections: Observable<Int>
  private let load: (Int) -> Observable<String>

  init(selections: Observable<Int>, load: @escaping (Int) -> Observable<String>) {
    self.selections = selections
    self.load = load
  }

  func mutate(action: Action) -> Observable<String> {
    selections.flatMapLatest(load)
  }

  func reduce(state: State, mutation: String) -> State { state + [mutation] }
}

/// Each search runs as a task until the next search starts.
private final class SearchReactor: Reactor, @unchecked Sendable {
  enum Action {
    case search(String)

    var isSearch: Bool { true }
  }

  enum Mutation { case finished(String) }

  struct State {
    var cancelled: [String] = []
  }

  let initialState = State()
  var onStart: @Sendable (String) -> Void = { _ in }
  var onCancel: @Sendable (String) -> Void = { _ in }

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .search(let query):
      let onStart = self.onStart
      let onCancel = self.onCancel
      return run(scheduler: CurrentThreadScheduler.instance) { send in
        // Polled, not an `onCancel` handler: the runtime skips the handler when the loop
        // sees the cancellation and leaves `withTaskCancellationHandler` first.
        onStart(query)
        while !Task.isCancelled { try? await Task.sleep(nanoseconds: 1_000_000) }
        onCancel(query)
        send(.finished(query))
      }
      .take(until: self.action.filter(\.isSearch))
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    if case .finished(let query) = mutation { state.cancelled.append(query) }
    return state
  }
}

/// Loads each selection in a task; a new selection cancels the previous task.
private final class TaskDetailReactor: Reactor, @unchecked Sendable {
  enum Action { case watch }
  typealias Mutation = Int
  typealias State = [Int]

  let initialState: State = []
  var onCancel: @Sendable (Int) -> Void = { _ in }
  private let selections: PublishSubject<Int>
  private let gates = Locked<[Int: Bool]>([:])

  init(selections: PublishSubject<Int>) {
    self.selections = selections
  }

  /// Lets the load of `id` finish.
  func release(_ id: Int) {
    gates.withLock { $0[id] = true }
  }

  func mutate(action: Action) -> Observable<Int> {
    let gates = self.gates
    return selections.flatMapLatest { [weak self] id -> Observable<Int> in
      guard let self else { return .empty() }
      let onCancel = self.onCancel
      return self.run(scheduler: CurrentThreadScheduler.instance) { send in
        // Polled, as in `SearchReactor`.
        while !Task.isCancelled && gates.withLock({ $0[id] }) != true {
          try? await Task.sleep(nanoseconds: 1_000_000)
        }
        if Task.isCancelled { onCancel(id) }
        send(id)
      }
    }
  }

  func reduce(state: State, mutation: Int) -> State { state + [mutation] }
}
