import ReactorKit

/// `reactor_action`: one reactor with one state subscriber; one op is one action, which
/// `mutate` turns into one mutation (`.just`) that `reduce` folds into the state.
func reactorAction() -> Workload {
  Workload(
    name: "reactor_action",
    subject: Measured {
      let reactor = BenchmarkCounterReactor()
      var total = 0
      let bag = DisposeBag()
      reactor.state.subscribe(onNext: { total &+= $0.count }).disposed(by: bag)
      let action = reactor.action
      return { count in
        for _ in 0..<count { action.onNext(.increase) }
        blackHole(total)
        withExtendedLifetime(bag) {}
        withExtendedLifetime(reactor) {}
      }
    },
    baseline: Measured {
      let lock = BaselineLock()
      var state = BenchmarkCounterReactor.State()
      var total = 0
      let subscriber: (BenchmarkCounterReactor.State) -> Void = { total &+= $0.count }
      return { count in
        for _ in 0..<count {
          lock.lock()
          state.count += 1
          let snapshot = state
          lock.unlock()
          subscriber(snapshot)
        }
        blackHole(total)
      }
    },
    bytes: {
      // Heap per live reactor whose streams exist, with one state subscriber.
      guard let before = heapBytesInUse() else { return nil }
      let reactors = (0..<1_000).map { _ in BenchmarkCounterReactor() }
      let bag = DisposeBag()
      for reactor in reactors { reactor.state.subscribe().disposed(by: bag) }
      guard let after = heapBytesInUse() else { return nil }
      withExtendedLifetime((reactors, bag)) {}
      return Double(after - before) / 1_000
    })
}

final class BenchmarkCounterReactor: Reactor {
  enum Action { case increase }
  enum Mutation { case increaseValue }
  struct State { var count = 0 }

  let initialState = State()

  func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .increase: return .just(.increaseValue)
    }
  }

  func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .increaseValue: state.count += 1
    }
    return state
  }
}
