import ReactorKit
import ReactorKitTesting
import TodosKit
import XCTest

final class SessionReactorTests: ResourceTestCase {
  func test_logIn_validNameSignsIn() {
    // given
    let provider = ServiceProvider()
    let reactor = SessionReactor(provider: provider)
    // when
    reactor.action.onNext(.logIn(name: " alice_1 "))
    // then
    XCTAssertEqual(reactor.currentState.user, User(name: "alice_1"))
    XCTAssertEqual(provider.store.currentState.session.user, User(name: "alice_1"))
  }

  func test_logIn_invalidNameRaisesAnAlert() {
    // given
    let provider = ServiceProvider()
    let reactor = SessionReactor(provider: provider)
    var alerts: [String] = []
    let subscription = reactor.pulse(\.$alertMessage).compactMap { $0 }
      .subscribe(onNext: { alerts.append($0) })
    // when
    reactor.action.onNext(.logIn(name: "no spaces"))
    reactor.action.onNext(.logIn(name: ""))
    reactor.action.onNext(.logIn(name: String(repeating: "a", count: 21)))
    // then
    XCTAssertEqual(alerts.count, 3)
    XCTAssertEqual(
      alerts.first, "'no spaces' is not a valid name: use 1 to 20 letters, digits, '-' or '_'.")
    XCTAssertNil(provider.store.currentState.session.user)
    subscription.dispose()
  }

  func test_logOut_followsTheStore() {
    // given
    let provider = ServiceProvider(state: AppState(session: SessionState(user: User(name: "bob"))))
    let reactor = SessionReactor(provider: provider)
    let initialUser = reactor.currentState.user
    // when
    reactor.action.onNext(.logOut)
    // then
    XCTAssertEqual(initialUser, User(name: "bob"))
    XCTAssertNil(reactor.currentState.user)
  }
}

final class StatsReactorTests: ResourceTestCase {
  func test_state_countsTheTodosAndSkipsUnrelatedChanges() {
    // given
    let provider = ServiceProvider(state: TodoListReactorTests.state())
    let reactor = StatsReactor(provider: provider)
    var states: [TodoStats] = []
    let subscription = reactor.state.subscribe(onNext: { states.append($0) })
    let initial = states
    // when
    provider.store.dispatch(SettingsAction.setFilter(.done))
    provider.store.dispatch(TodoAction.edit(id: 1, title: "brown eggs"))
    let afterUnrelated = states
    provider.store.dispatch(TodoAction.toggle(id: 1))
    // then
    XCTAssertEqual(initial.last, TodoStats(total: 3, done: 1))
    XCTAssertEqual(afterUnrelated, initial)
    XCTAssertEqual(states, initial + [TodoStats(total: 3, done: 2)])
    XCTAssertEqual(states.last?.active, 1)
    XCTAssertEqual(states.last?.percentDone, 66)
    subscription.dispose()
  }

  func test_stats_ofNoTodos() {
    XCTAssertEqual(TodoStats([]).percentDone, 0)
    XCTAssertEqual(TodoStats([]).active, 0)
  }
}
