import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class EffectTests: ResourceTestCase {
  // MARK: - Cancellation

  func test_effects_cancelByID_disposesTheRunningEffect() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let search = scheduler.createColdObservable([
      .next(10, SearchAction.results(["A"])), .completed(10),
    ])
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [searchEffects { _ in search.asObservable() }])
    // when
    store.send(SearchAction.query("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    scheduler.advanceTo(5)
    store.send(SearchAction.cancel) { $0.isSearching = false }
    scheduler.advanceTo(50)
    // then: nothing received; the effect was disposed at 5
    store.finish()
    XCTAssertEqual(search.subscriptions, [Subscription(0, 5)])
  }

  func test_effects_cancelInFlight_theLatestWins() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let answers = [
      "a": scheduler.createColdObservable([.next(10, SearchAction.results(["A"])), .completed(10)]),
      "ab": scheduler.createColdObservable([
        .next(10, SearchAction.results(["AB"])), .completed(10),
      ]),
    ]
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [searchEffects { answers[$0]!.asObservable() }])
    // when
    store.send(SearchAction.query("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    scheduler.advanceTo(3)
    store.send(SearchAction.query("ab")) { $0.query = "ab" }
    scheduler.advanceTo(50)
    // then
    store.receive(SearchAction.results(["AB"])) {
      $0.results = ["AB"]
      $0.isSearching = false
    }
    store.finish()
    XCTAssertEqual(answers["a"]!.subscriptions, [Subscription(0, 3)])
    XCTAssertEqual(answers["ab"]!.subscriptions, [Subscription(3, 13)])
  }

  func test_effects_withoutCancelInFlight_everyEffectRuns() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        .effects(on: SearchAction.self) { action, _ in
          guard case .query(let text) = action else { return .none }
          return Effect(
            Observable.just(SearchAction.results([text.uppercased()]))
              .delay(.seconds(10), scheduler: scheduler)
          )
          .cancellable(id: SearchEffect.search)
        }
      ])
    // when
    store.send(SearchAction.query("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    scheduler.advanceTo(3)
    store.send(SearchAction.query("b")) { $0.query = "b" }
    scheduler.advanceTo(50)
    // then
    store.receive(SearchAction.results(["A"])) {
      $0.results = ["A"]
      $0.isSearching = false
    }
    store.receive(SearchAction.results(["B"])) { $0.results = ["B"] }
    store.finish()
  }

  func test_effects_mergeStartsItsEffectsInOrder() {
    // given: cancelling, then starting, by hand (what cancelInFlight does)
    let scheduler = TestScheduler(initialClock: 0)
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        .effects(on: SearchAction.self) { action, _ in
          guard case .query(let text) = action else { return .none }
          return .merge(
            .cancel(id: SearchEffect.search),
            Effect(
              Observable.just(SearchAction.results([text]))
                .delay(.seconds(10), scheduler: scheduler)
            )
            .cancellable(id: SearchEffect.search))
        }
      ])
    store.exhaustivity = .off
    // when
    store.send(SearchAction.query("a"))
    scheduler.advanceTo(3)
    store.send(SearchAction.query("b"))
    scheduler.advanceTo(50)
    // then
    store.receive(SearchAction.results(["b"]))
    XCTAssertEqual(store.store.currentState.results, ["b"])
    store.finish()
  }

  func test_effects_idsBelongToOneStore() {
    // given: one middleware value serving two stores
    let scheduler = TestScheduler(initialClock: 0)
    let effects = searchEffects { text in
      Observable.just(SearchAction.results([text])).delay(.seconds(10), scheduler: scheduler)
    }
    let first = Store(reducer: searchReducer, state: SearchState(), middleware: [effects])
    let second = Store(reducer: searchReducer, state: SearchState(), middleware: [effects])
    // when
    first.dispatch(SearchAction.query("one"))
    second.dispatch(SearchAction.query("two"))
    first.dispatch(SearchAction.cancel)
    scheduler.advanceTo(50)
    // then
    XCTAssertEqual(first.currentState.results, [])
    XCTAssertEqual(second.currentState.results, ["two"])
  }

  func test_effects_cancelFromTheEffectsOwnAction_stopsIt() {
    // given: an effect whose first action cancels it
    let scheduler = TestScheduler(initialClock: 0)
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        .effects(on: SearchAction.self) { action, _ in
          switch action {
          case .query:
            return Effect(
              Observable<Int>.interval(.seconds(1), scheduler: scheduler)
                .map { SearchAction.results(["\($0)"]) }
            )
            .cancellable(id: SearchEffect.search)
          case .results: return .cancel(id: SearchEffect.search)
          default: return .none
          }
        }
      ])
    // when
    store.send(SearchAction.query("x")) {
      $0.query = "x"
      $0.isSearching = true
    }
    scheduler.advanceTo(10)
    // then: one tick, then nothing
    store.receive(SearchAction.results(["0"])) {
      $0.results = ["0"]
      $0.isSearching = false
    }
    store.finish()
  }

  // MARK: - Lifetime

  func test_effects_storeFreed_disposesRunningEffects() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let search = scheduler.createColdObservable([
      .next(10, SearchAction.results(["A"])), .completed(10),
    ])
    var store: Store<SearchState>? = Store(
      reducer: searchReducer, state: SearchState(),
      middleware: [searchEffects { _ in search.asObservable() }])
    weak let weakStore = store
    store?.dispatch(SearchAction.query("a"))
    scheduler.advanceTo(5)
    // when
    store = nil
    // then
    XCTAssertNil(weakStore, "A running effect does not keep the store alive.")
    XCTAssertEqual(search.subscriptions, [Subscription(0, 5)])
    scheduler.advanceTo(50)
  }

  func test_effects_storeFreed_releasesWhatTheEffectHolds() {
    // given: an effect that never ends, holding a probe
    final class Probe: Sendable {}
    var probe: Probe? = Probe()
    weak let weakProbe = probe
    let heldProbe = HandOff(probe)
    probe = nil
    let disposed = AtomicBox<Bool>(false)
    var store: Store<SearchState>? = Store(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        searchEffects { _ in
          let captured = heldProbe.take()
          return Observable.create { _ in
            Disposables.create {
              withExtendedLifetime(captured) {}
              disposed.store(true, ordering: .releasing)
            }
          }
        }
      ])
    store?.dispatch(SearchAction.query("a"))
    XCTAssertNotNil(weakProbe, "The running effect holds the probe.")
    // when
    store = nil
    // then
    XCTAssertTrue(disposed.load(ordering: .acquiring))
    XCTAssertNil(weakProbe, "Freeing the store released the effect and what it held.")
  }

  func test_effects_storeFreed_nothingIsDispatchedAfterwards() {
    // given
    let subject = PublishSubject<SearchAction>()
    let dispatched = AtomicBox<Int>(0)
    var store: Store<SearchState>? = Store(
      reducer: Reducer { _, _ in _ = dispatched.add(1, ordering: .relaxed) }, state: SearchState(),
      middleware: [searchEffects { _ in subject.asObservable() }])
    store?.dispatch(SearchAction.query("a"))
    subject.onNext(.results(["before"]))
    XCTAssertEqual(dispatched.load(ordering: .relaxed), 2)
    // when
    store = nil
    subject.onNext(.results(["after"]))
    // then
    XCTAssertFalse(subject.hasObservers, "The effect was disposed with the store.")
    XCTAssertEqual(dispatched.load(ordering: .relaxed), 2)
  }

  func test_effects_completedEffectsAreReleased() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let store = Store(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        searchEffects { text in
          Observable.just(SearchAction.results([text])).delay(.seconds(1), scheduler: scheduler)
        }
      ])
    let baseline = Resources.total
    // when
    for index in 0..<100 { store.dispatch(SearchAction.query("\(index)")) }
    scheduler.advanceTo(1_000)
    // then
    XCTAssertEqual(store.currentState.results, ["99"])
    XCTAssertEqual(Resources.total, baseline, "Every finished effect released its subscription.")
  }

  // MARK: - Actions, state, errors

  func test_effects_seeTheStateAfterTheAction_andSendIsQueuedAfterIt() {
    // given
    let seen = Locked<[String]>([])
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        .effects { action, state in
          seen.withLock { $0.append("\(action) \(state.query)") }
          guard case SearchAction.query(let text) = action else { return .none }
          return .send(SearchAction.results([text]))
        }
      ])
    // when
    store.send(SearchAction.query("a")) {
      $0.query = "a"
      $0.isSearching = true
    }
    // then
    store.receive(SearchAction.results(["a"])) {
      $0.results = ["a"]
      $0.isSearching = false
    }
    store.finish()
    XCTAssertEqual(seen.current, ["query(\"a\") a", "results([\"a\"]) a"])
  }

  func test_effects_anErrorEndsOnlyTheFailingEffect() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        .effects(on: SearchAction.self) { action, _ in
          guard case .query(let text) = action else { return .none }
          if text == "fail" {
            return Effect(
              Observable<SearchAction>.error(TestError(1)).delaySubscription(
                .seconds(1), scheduler: scheduler))
          }
          return Effect(
            Observable.just(SearchAction.results([text])).delay(.seconds(5), scheduler: scheduler))
        }
      ])
    store.exhaustivity = .off
    let reported = Locked<[String]>([])
    let handler = Hooks.defaultErrorHandler
    Hooks.defaultErrorHandler = { _, error in reported.withLock { $0.append("\(error)") } }
    defer { Hooks.defaultErrorHandler = handler }
    // when
    store.send(SearchAction.query("ok"))
    store.send(SearchAction.query("fail"))
    scheduler.advanceTo(10)
    // then
    store.receive(SearchAction.results(["ok"]))
    store.finish()
    XCTAssertEqual(reported.current, ["\(TestError(1))"], "The error was reported, not lost.")
  }

  func test_effects_typedAndUntypedObservables() {
    // given
    let store = TestStore(
      reducer: searchReducer, state: SearchState(),
      middleware: [
        .effects { action, _ in
          guard case SearchAction.query = action else { return .none }
          let untyped: Observable<any Action> = .just(SearchAction.results(["untyped"]))
          return .merge(Effect(untyped), Effect(Observable.just(SearchAction.results(["typed"]))))
        }
      ])
    store.exhaustivity = .off
    // when
    store.send(SearchAction.query("a"))
    // then
    store.receive(SearchAction.results(["untyped"]))
    store.receive(SearchAction.results(["typed"]))
    store.finish()
  }
}

// MARK: - Fixtures

private enum SearchAction: Action, Equatable {
  case query(String)
  case results([String])
  case cancel
}

private enum SearchEffect: Hashable, Sendable {
  case search
}

private struct SearchState: Equatable {
  var query = ""
  var results: [String] = []
  var isSearching = false
}

private let searchReducer = Reducer<SearchState>.on(SearchAction.self) { state, action in
  switch action {
  case .query(let text):
    state.query = text
    state.isSearching = true
  case .results(let results):
    state.results = results
    state.isSearching = false
  case .cancel:
    state.isSearching = false
  }
}

/// Searches with `answer(query)`, the latest query winning; `.cancel` cancels the search.
private func searchEffects(
  _ answer: @escaping @Sendable (String) -> Observable<SearchAction>
) -> Middleware<SearchState> {
  .effects(on: SearchAction.self) { action, _ in
    switch action {
    case .query(let text):
      return Effect(answer(text)).cancellable(id: SearchEffect.search, cancelInFlight: true)
    case .cancel:
      return .cancel(id: SearchEffect.search)
    case .results:
      return .none
    }
  }
}

/// Hands a value to a `@Sendable` closure once.
private final class HandOff<Value>: @unchecked Sendable {
  // Safety: only touched by `take`, under `lock`.
  private let lock = NSLock()
  private var value: Value?

  init(_ value: Value?) { self.value = value }

  func take() -> Value? {
    lock.lock()
    defer { lock.unlock() }
    let taken = value
    value = nil
    return taken
  }
}
