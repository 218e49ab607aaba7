import ReactorKit
import ReactorKitTesting
import XCTest

/// Engine: ReactorCore+Path.swift and ReactorCore+Drain.swift (the drain loop: an action sent while one is processed waits its turn).
final class ReactorReentrancyTests: ResourceTestCase {
  func test_actionFromStateSubscriber_runsAfterCurrentAction() {
    // given
    let reactor = LogReactor()
    var sent = false
    let subscription = reactor.state.subscribe(onNext: { state in
      if !sent && state.log.contains("enter a") {
        sent = true
        reactor.action.onNext(.b)
      }
    })
    // when
    reactor.action.onNext(.a)
    // then
    XCTAssertEqual(reactor.currentState.log, ["enter a", "exit a", "enter b", "exit b"])
    XCTAssertEqual(reactor.maximumDepth, 1)
    subscription.dispose()
  }

  func test_actionFromReduce_runsAfterCurrentAction() {
    // given
    let reactor = LogReactor()
    reactor.followUpFromReduce = (after: "enter a", send: .b)
    // when
    reactor.action.onNext(.a)
    // then
    XCTAssertEqual(reactor.currentState.log, ["enter a", "exit a", "enter b", "exit b"])
    XCTAssertEqual(reactor.maximumDepth, 1)
  }

  func test_actionFromTransformState_runsAfterCurrentAction() {
    // given
    let reactor = LogReactor()
    reactor.followUpFromTransformState = (after: "enter a", send: .b)
    // when
    reactor.action.onNext(.a)
    // then
    XCTAssertEqual(reactor.currentState.log, ["enter a", "exit a", "enter b", "exit b"])
    XCTAssertEqual(reactor.maximumDepth, 1)
  }

  func test_actionFromMutate_runsAfterCurrentAction() {
    // given
    let reactor = LogReactor()
    reactor.followUpFromMutate = (on: .a, send: .b)
    // when
    reactor.action.onNext(.a)
    // then
    XCTAssertEqual(reactor.currentState.log, ["enter a", "exit a", "enter b", "exit b"])
  }

  func test_severalReentrantActions_runInTheOrderSent() {
    // given
    let reactor = LogReactor()
    var sent = false
    let subscription = reactor.state.subscribe(onNext: { state in
      guard !sent, state.log == ["enter a"] else { return }
      sent = true
      reactor.action.onNext(.b)
      reactor.action.onNext(.c)
      reactor.action.onNext(.a)
    })
    // when
    reactor.action.onNext(.a)
    // then
    XCTAssertEqual(
      reactor.currentState.log,
      ["enter a", "exit a", "enter b", "exit b", "enter c", "exit c", "enter a", "exit a"])
    subscription.dispose()
  }

  func test_actionFromSubscriber_everySubscriberSeesStatesInOrder() {
    // given
    let reactor = RouteReactor()
    var firstSeen: [String?] = []
    var secondSeen: [String?] = []
    let bag = DisposeBag()
    reactor.state.subscribe(onNext: { state in
      firstSeen.append(state.route)
      if state.route == nil { reactor.action.onNext(.present("next")) }
    }).disposed(by: bag)
    reactor.state.subscribe(onNext: { secondSeen.append($0.route) }).disposed(by: bag)
    // when
    reactor.action.onNext(.dismiss)
    // then
    XCTAssertEqual(reactor.currentState.route, "next")
    XCTAssertEqual(firstSeen, ["initial", nil, "next"])
    XCTAssertEqual(secondSeen, ["initial", nil, "next"])
  }

  func test_actionSentInsideTrampolineWork_runsAfterThatWork() {
    // given
    let reactor = LogReactor()
    var logInsideWork: [String] = []
    // when
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      reactor.action.onNext(.a)
      logInsideWork = reactor.currentState.log
      return Disposables.create()
    }
    // then
    XCTAssertEqual(logInsideWork, [])
    XCTAssertEqual(reactor.currentState.log, ["enter a", "exit a"])
  }

  func test_actionSentOutsideTrampoline_runsBeforeOnNextReturns() {
    // given
    let reactor = LogReactor()
    _ = reactor.state
    // when
    reactor.action.onNext(.a)
    reactor.action.onNext(.b)
    // then
    XCTAssertEqual(reactor.currentState.log, ["enter a", "exit a", "enter b", "exit b"])
    XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
  }

  func test_actionToAnotherReactorFromSubscriber_runsAfterCurrentAction() {
    // given
    let source = LogReactor()
    let target = LogReactor()
    var targetLogWhenSourceFinished: [String] = []
    let bag = DisposeBag()
    source.state.subscribe(onNext: { state in
      if state.log == ["enter a"] { target.action.onNext(.b) }
      if state.log.count == 2 { targetLogWhenSourceFinished = target.currentState.log }
    }).disposed(by: bag)
    // when
    source.action.onNext(.a)
    // then
    XCTAssertEqual(targetLogWhenSourceFinished, [])
    XCTAssertEqual(target.currentState.log, ["enter b", "exit b"])
  }
}

// MARK: - Fakes

/// Logs "enter"/"exit" for each action (two synchronous mutations from `from`) and measures
/// how deeply `reduce` nests.
private final class LogReactor: Reactor {
  enum Action: Equatable { case a, b, c }

  enum Mutation {
    case enter(Action)
    case exit(Action)
  }

  struct State {
    var log: [String] = []
  }

  let initialState = State()
  var followUpFromReduce: (after: String, send: Action)?
  var followUpFromTransformState: (after: String, send: Action)?
  var followUpFromMutate: (on: Action, send: Action)?
  private(set) var maximumDepth = 0
  private var depth = 0

  func mutate(action: Action) -> Observable<Mutation> {
    if let followUp = followUpFromMutate, followUp.on == action {
      followUpFromMutate = nil
      self.action.onNext(followUp.send)
    }
    return .from([.enter(action), .exit(action)])
  }

  func reduce(state: State, mutation: Mutation) -> State {
    depth += 1
    maximumDepth = max(maximumDepth, depth)
    defer { depth -= 1 }
    var state = state
    switch mutation {
    case .enter(let action): state.log.append("enter \(action)")
    case .exit(let action): state.log.append("exit \(action)")
    }
    if let followUp = followUpFromReduce, state.log.last == followUp.after {
      followUpFromReduce = nil
      action.onNext(followUp.send)
    }
    return state
  }

  func transform(state: Observable<State>) -> Observable<State> {
    state.map { [weak self] state in
      if let self, let followUp = self.followUpFromTransformState,
        state.log.last == followUp.after
      {
        self.followUpFromTransformState = nil
        self.action.onNext(followUp.send)
      }
      return state
    }
  }
}

private final class RouteReactor: Reactor {
  enum Action {
    case dismiss
    case present(String)
  }

  struct State {
    var route: String?
  }

  let initialState = State(route: "initial")

  func mutate(action: Action) -> Observable<Action> { .just(action) }

  func reduce(state: State, mutation: Action) -> State {
    switch mutation {
    case .dismiss: return State(route: nil)
    case .present(let route): return State(route: route)
    }
  }
}
