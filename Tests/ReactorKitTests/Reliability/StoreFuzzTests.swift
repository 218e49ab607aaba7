import ReactorKit
import ReactorKitTesting
import XCTest

/// Random action sequences dispatched to a store built from composed reducers (`combine`,
/// `lift`, `on`, the pure form) and a random middleware chain, compared with a plain model
/// that folds the same actions with one `switch` and runs the same chain by hand.
final class StoreFuzzTests: ResourceTestCase {
  func test_store_randomActionsAndMiddleware_matchThePlainModel() {
    for seed in StressConfiguration.seeds(100) {
      var generator = SeededRandomNumberGenerator(seed: seed)
      // given
      let stages = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
        FuzzStage.allCases[Int.random(in: 0..<FuzzStage.allCases.count, using: &generator)]
      }
      let store = Store(
        reducer: fuzzReducer, state: FuzzState(), middleware: stages.map(\.middleware))
      var model = FuzzModel(stages: stages)
      var reduced: [String] = []
      var published: [FuzzState] = []
      let actionsWatcher = store.actions.subscribe(onNext: { reduced.append("\($0)") })
      let stateWatcher = store.state.subscribe(onNext: { published.append($0) })
      let context = "seed \(seed), middleware \(stages)"
      // when
      for step in 0..<60 {
        if Int.random(in: 0..<8, using: &generator) == 0 {
          let batch = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            randomAction(using: &generator)
          }
          store.dispatch(Observable.from(batch))
          for action in batch { model.dispatch(action) }
        } else {
          let action = randomAction(using: &generator)
          store.dispatch(action)
          model.dispatch(action)
        }
        // then: dispatch is synchronous, so the store is where the model is after each step
        if store.currentState != model.state {
          XCTFail("\(context), step \(step): \(store.currentState) != \(model.state)")
          break
        }
      }
      XCTAssertEqual(reduced, model.reduced, context)
      XCTAssertEqual(published, [FuzzState()] + model.states, context)
      actionsWatcher.dispose()
      stateWatcher.dispose()
    }
  }
}

// MARK: - State and actions

private struct FuzzState: Equatable {
  struct Counter: Equatable {
    var value = 0
    var resets = 0
  }

  struct List: Equatable {
    var items: [Int] = []
  }

  struct Session: Equatable {
    var name: String
    var edits = 0
  }

  var counter = Counter()
  var list = List()
  var session: Session?
  var reductions = 0
}

private enum FuzzCounterAction: Action, Equatable {
  case add(Int)
  case reset
}

private enum FuzzListAction: Action, Equatable {
  case append(Int)
  case removeFirst
  case clear
}

private enum FuzzSessionAction: Action, Equatable {
  case start(String)
  case rename(String)
  case end
}

/// Handled by no feature reducer; the middleware may react to it.
private struct FuzzPing: Action, Equatable {}

private func randomAction(using generator: inout SeededRandomNumberGenerator) -> any Action {
  switch Int.random(in: 0..<20, using: &generator) {
  case 0..<6: return FuzzCounterAction.add(Int.random(in: -5...80, using: &generator))
  case 6: return FuzzCounterAction.reset
  case 7..<11: return FuzzListAction.append(Int.random(in: -3...9, using: &generator))
  case 11: return FuzzListAction.removeFirst
  case 12: return FuzzListAction.clear
  case 13: return FuzzSessionAction.start(["ann", "bob"][Int.random(in: 0...1, using: &generator)])
  case 14..<16:
    return FuzzSessionAction.rename(["", "cy", "di"][Int.random(in: 0...2, using: &generator)])
  case 16: return FuzzSessionAction.end
  default: return FuzzPing()
  }
}

// MARK: - The store's reducer, composed

private var fuzzReducer: Reducer<FuzzState> {
  .combine(
    Reducer<FuzzState.Counter>.on(FuzzCounterAction.self) { counter, action in
      switch action {
      case .add(let amount): counter.value += amount
      case .reset:
        counter.value = 0
        counter.resets += 1
      }
    }.lift(\.counter),
    Reducer<FuzzState.List>.pure({ list, action in
      var list = list
      switch action {
      case FuzzListAction.append(let value): list.items.append(value)
      case FuzzListAction.removeFirst where !list.items.isEmpty: list.items.removeFirst()
      case FuzzListAction.clear: list.items = []
      default: break
      }
      return list
    }).lift(\.list),
    Reducer<FuzzState>.on(FuzzSessionAction.self) { state, action in
      switch action {
      case .start(let name): state.session = FuzzState.Session(name: name)
      case .end: state.session = nil
      case .rename: break
      }
    },
    Reducer<FuzzState.Session>.on(FuzzSessionAction.self) { session, action in
      if case .rename(let name) = action {
        session.name = name
        session.edits += 1
      }
    }.lift(\FuzzState.session),
    Reducer { state, _ in state.reductions += 1 })
}

// MARK: - Middleware, real and modelled

private enum FuzzStage: CaseIterable, CustomStringConvertible {
  /// `flatMap`: an `add` of a multiple of 3 is reduced twice.
  case double
  /// `map`: an `add` above 50 becomes `add(50)`.
  case clamp
  /// `filter`: appends of negative values are dropped.
  case dropNegativeAppends
  /// `sideEffect`: `clear` also dispatches `reset`.
  case resetOnClear
  /// `redux`: after `next`, a counter above 200 dispatches `reset`.
  case overflowGuard
  /// `compactMap`: a rename to "" is dropped.
  case dropBlankRenames
  /// `init(_:)`: `FuzzPing` dispatches an append of the counter's last digit, read before the
  /// ping is reduced.
  case pingEcho
  /// `init()`.
  case passThrough
  /// `concat`: `double` then `clamp`.
  case doubleThenClamp

  var description: String {
    switch self {
    case .double: "double"
    case .clamp: "clamp"
    case .dropNegativeAppends: "dropNegativeAppends"
    case .resetOnClear: "resetOnClear"
    case .overflowGuard: "overflowGuard"
    case .dropBlankRenames: "dropBlankRenames"
    case .pingEcho: "pingEcho"
    case .passThrough: "passThrough"
    case .doubleThenClamp: "doubleThenClamp"
    }
  }

  var middleware: Middleware<FuzzState> {
    switch self {
    case .double:
      return Middleware().flatMap { _, action in
        if case FuzzCounterAction.add(let amount) = action, amount.isMultiple(of: 3) {
          return [action, action]
        }
        return [action]
      }
    case .clamp:
      return Middleware().map { _, action in
        if case FuzzCounterAction.add(let amount) = action, amount > 50 {
          return FuzzCounterAction.add(50)
        }
        return action
      }
    case .dropNegativeAppends:
      return Middleware().filter { _, action in
        if case FuzzListAction.append(let value) = action { return value >= 0 }
        return true
      }
    case .resetOnClear:
      return Middleware().sideEffect { _, dispatch, action in
        if case FuzzListAction.clear = action { dispatch(FuzzCounterAction.reset) }
      }
    case .overflowGuard:
      return .redux { getState, dispatch in
        { next in
          { action in
            next(action)
            if getState().counter.value > 200 { dispatch(FuzzCounterAction.reset) }
          }
        }
      }
    case .dropBlankRenames:
      return Middleware().compactMap { _, action in
        if case FuzzSessionAction.rename("") = action { return nil }
        return action
      }
    case .pingEcho:
      return Middleware { getState, dispatch, action in
        if action is FuzzPing {
          dispatch(FuzzListAction.append(abs(getState().counter.value) % 10))
        }
        return [action]
      }
    case .passThrough:
      return Middleware()
    case .doubleThenClamp:
      return FuzzStage.double.middleware.concat(FuzzStage.clamp.middleware)
    }
  }
}

/// The store's behaviour written out plainly: one `switch` for the reducer, the chain run by
/// recursion, and dispatches from inside the chain queued FIFO until the top-level action is
/// done.
private struct FuzzModel {
  let stages: [FuzzStage]
  var state = FuzzState()
  var reduced: [String] = []
  var states: [FuzzState] = []
  private var queue: [any Action] = []

  init(stages: [FuzzStage]) {
    self.stages = stages
  }

  mutating func dispatch(_ action: any Action) {
    queue = [action]
    while !queue.isEmpty {
      let next = queue.removeFirst()
      run(next, from: 0)
    }
  }

  private mutating func run(_ action: any Action, from index: Int) {
    guard index < stages.count else {
      reduce(action)
      return
    }
    let next = index + 1
    switch stages[index] {
    case .double, .doubleThenClamp:
      var outputs: [any Action] = [action]
      if case FuzzCounterAction.add(let amount) = action, amount.isMultiple(of: 3) {
        outputs = [action, action]
      }
      for output in outputs {
        if stages[index] == .doubleThenClamp {
          run(clamped(output), from: next)
        } else {
          run(output, from: next)
        }
      }
    case .clamp:
      run(clamped(action), from: next)
    case .dropNegativeAppends:
      if case FuzzListAction.append(let value) = action, value < 0 { return }
      run(action, from: next)
    case .resetOnClear:
      if case FuzzListAction.clear = action { queue.append(FuzzCounterAction.reset) }
      run(action, from: next)
    case .overflowGuard:
      run(action, from: next)
      if state.counter.value > 200 { queue.append(FuzzCounterAction.reset) }
    case .dropBlankRenames:
      if case FuzzSessionAction.rename("") = action { return }
      run(action, from: next)
    case .pingEcho:
      if action is FuzzPing { queue.append(FuzzListAction.append(abs(state.counter.value) % 10)) }
      run(action, from: next)
    case .passThrough:
      run(action, from: next)
    }
  }

  private func clamped(_ action: any Action) -> any Action {
    if case FuzzCounterAction.add(let amount) = action, amount > 50 {
      return FuzzCounterAction.add(50)
    }
    return action
  }

  private mutating func reduce(_ action: any Action) {
    reduced.append("\(action)")
    switch action {
    case FuzzCounterAction.add(let amount): state.counter.value += amount
    case FuzzCounterAction.reset:
      state.counter.value = 0
      state.counter.resets += 1
    case FuzzListAction.append(let value): state.list.items.append(value)
    case FuzzListAction.removeFirst: if !state.list.items.isEmpty { state.list.items.removeFirst() }
    case FuzzListAction.clear: state.list.items = []
    case FuzzSessionAction.start(let name): state.session = FuzzState.Session(name: name)
    case FuzzSessionAction.end: state.session = nil
    case FuzzSessionAction.rename(let name):
      if state.session != nil {
        state.session!.name = name
        state.session!.edits += 1
      }
    default: break
    }
    state.reductions += 1
    states.append(state)
  }
}
