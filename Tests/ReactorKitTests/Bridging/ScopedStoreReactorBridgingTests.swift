import ReactorKit
import ReactorKitTesting
import XCTest

final class ScopedStoreReactorBridgingTests: ResourceTestCase {
  func test_reactorOnAScope_followsTheSliceAndDispatchesToTheRootStore() {
    // given
    let store = Store(reducer: bridgeAppReducer, state: BridgeAppState())
    let reactor = BadgeReactor(session: store.scope(\.session))
    var names: [String?] = []
    let subscription = reactor.state.subscribe(onNext: { names.append($0.name) })
    // when
    store.dispatch(BridgeSessionAction.logIn("ana"))
    reactor.send(.logOut)
    // then
    XCTAssertEqual(names, [nil, "ana", nil, nil], "the slice's nil, then the count")
    XCTAssertEqual(reactor.currentState.logOuts, 1)
    XCTAssertNil(store.currentState.session.name)
    subscription.dispose()
  }

  func test_dispatchEffect_ofAScopeDispatchesOncePerSubscription() {
    // given
    let store = Store(reducer: bridgeAppReducer, state: BridgeAppState())
    let effect = store.scope(\.session).dispatchEffect(
      BridgeSessionAction.logIn("bo"), then: Observable.just(1))
    XCTAssertNil(store.currentState.session.name, "nothing is dispatched before subscribing")
    // when
    let values = try? effect.toBlocking().toArray()
    // then
    XCTAssertEqual(values, [1])
    XCTAssertEqual(store.currentState.session.name, "bo")
  }
}

// MARK: - Fakes

private enum BridgeSessionAction: Action {
  case logIn(String)
  case logOut
}

private struct BridgeSession: Equatable { var name: String? }
private struct BridgeAppState: Equatable {
  var session = BridgeSession()
  var other = 0
}

private let bridgeAppReducer = Reducer<BridgeSession>.on(BridgeSessionAction.self) {
  session, action in
  switch action {
  case .logIn(let name): session.name = name
  case .logOut: session.name = nil
  }
}.lift(\BridgeAppState.session)

private final class BadgeReactor: Reactor {
  enum Action { case logOut }
  enum Mutation {
    case setName(String?)
    case countLogOut
  }
  struct State {
    var name: String?
    var logOuts = 0
  }

  let initialState: State
  private let session: ScopedStore<BridgeSession>

  init(session: ScopedStore<BridgeSession>) {
    self.session = session
    initialState = State(name: session.currentState.name)
  }

  func mutate(action: Action) -> Observable<Mutation> {
    session.dispatchEffect(BridgeSessionAction.logOut, then: .just(.countLogOut))
  }

  func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    .merge(mutation, session.slice(\.name, as: Mutation.setName))
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setName(let name): state.name = name
    case .countLogOut: state.logOuts += 1
    }
    return state
  }
}
