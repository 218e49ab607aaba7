import ReactorKit
import ReactorKitTesting
import XCTest

// The README's five-minute tour, kept compiling and behaving as the README says. Keep the
// two in step when either changes.

/// The tour's declarations, namespaced so they do not clash with other tests.
private enum Tour {
  final class CounterReactor: Reactor {
    enum Action { case increase, decrease }
    enum Mutation { case setValue(Int) }
    struct State { var value = 0 }

    let initialState = State()

    func mutate(action: Action) -> Observable<Mutation> {
      switch action {
      case .increase: return .just(.setValue(currentState.value + 1))
      case .decrease: return .just(.setValue(currentState.value - 1))
      }
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var state = state
      switch mutation {
      case .setValue(let value): state.value = value
      }
      return state
    }
  }

  struct AppState: Equatable {
    var session = SessionState()
    var todos: [String] = []
  }
  struct SessionState: Equatable { var user: String? }

  enum SessionAction: Action {
    case logIn(String)
    case logOut
  }
  struct AddTodo: Action { let title: String }

  static let sessionReducer = Reducer<SessionState>.on(SessionAction.self) { state, action in
    switch action {
    case .logIn(let name): state.user = name
    case .logOut: state.user = nil
    }
  }
  static let appReducer = Reducer<AppState>.combine(
    sessionReducer.lift(\.session),
    .on(AddTodo.self) { state, action in state.todos.append(action.title) }
  )

  final class ProfileReactor: Reactor {
    enum Action { case logOut }
    enum Mutation {
      case setUser(String?)
      case setBusy(Bool)
    }
    struct State {
      var user: String?
      var isBusy = false
    }

    let initialState = State()
    let store: Store<AppState>

    init(store: Store<AppState>) { self.store = store }

    func mutate(action: Action) -> Observable<Mutation> {
      switch action {
      case .logOut:
        return store.dispatchEffect(SessionAction.logOut, then: .just(.setBusy(false)))
      }
    }

    func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
      .merge(mutation, store.slice(\.session.user, as: Mutation.setUser))
    }

    func reduce(state: State, mutation: Mutation) -> State {
      var state = state
      switch mutation {
      case .setUser(let user): state.user = user
      case .setBusy(let busy): state.isBusy = busy
      }
      return state
    }
  }
}

final class ReadmeTourTests: ResourceTestCase {
  func test_readmeReactor_printsTheInitialThenTheIncreasedValue() {
    // given
    var printed: [String] = []
    let reactor = Tour.CounterReactor()
    let bag = DisposeBag()
    reactor.state.map(\.value).distinctUntilChanged()
      .subscribe(onNext: { printed.append("value: \($0)") })
      .disposed(by: bag)
    // when
    reactor.send(.increase)
    // then
    XCTAssertEqual(printed, ["value: 0", "value: 1"])
  }

  func test_readmeStore_sliceEmitsOnlyWhenTheUserChanges() {
    // given
    var printed: [String] = []
    let store = Store(reducer: Tour.appReducer, state: Tour.AppState())
    let subscription = store.slice(\.session.user)
      .subscribe(onNext: { printed.append("user: \($0 ?? "nobody")") })
    // when
    store.dispatch(Tour.SessionAction.logIn("ana"))
    store.dispatch(Tour.AddTodo(title: "Buy milk"))
    subscription.dispose()
    // then
    XCTAssertEqual(printed, ["user: nobody", "user: ana"])
    XCTAssertEqual(store.currentState.todos, ["Buy milk"])
  }

  func test_readmeBridge_reactorMirrorsTheUserAndLogsOut() {
    // given
    let store = Store(reducer: Tour.appReducer, state: Tour.AppState())
    let reactor = Tour.ProfileReactor(store: store)
    let bag = DisposeBag()
    reactor.state.subscribe().disposed(by: bag)
    // when
    store.dispatch(Tour.SessionAction.logIn("ana"))
    // then
    XCTAssertEqual(reactor.currentState.user, "ana")
    // when
    reactor.action.onNext(.logOut)
    // then
    XCTAssertNil(store.currentState.session.user)
    XCTAssertNil(reactor.currentState.user)
    XCTAssertFalse(reactor.currentState.isBusy)
  }

  func test_readmeTestStore_logInSetsTheUser() {
    let store = TestStore(reducer: Tour.appReducer, state: Tour.AppState())
    store.send(Tour.SessionAction.logIn("ana")) { $0.session.user = "ana" }
    store.send(Tour.AddTodo(title: "Buy milk")) { $0.todos = ["Buy milk"] }
  }

  func test_readmeCounter_increases() {
    let reactor = Tour.CounterReactor()
    reactor.send(.increase)
    XCTAssertEqual(reactor.currentState.value, 1)
  }
}
