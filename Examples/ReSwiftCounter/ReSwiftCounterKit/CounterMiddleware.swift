import ReactorKitReSwift

/// Drops an increase or decrease that would take the counter past ``CounterState/limit``.
public func limitMiddleware() -> Middleware<CounterState> {
  { _, getState in
    { next in
      { action in
        let counter = getState()?.counter ?? 0
        switch action {
        case is CounterActionIncrease where counter >= CounterState.limit: return
        case is CounterActionDecrease where counter <= -CounterState.limit: return
        default: next(action)
        }
      }
    }
  }
}

/// Reports each action and the counter after it through `log`.
public func loggingMiddleware(_ log: @escaping (String) -> Void) -> Middleware<CounterState> {
  { _, getState in
    { next in
      { action in
        next(action)
        log("\(type(of: action)) -> \(getState()?.counter ?? 0)")
      }
    }
  }
}

/// Creates the app's store: no initial state (the reducer builds it), the limit, then logging.
public func makeCounterStore(log: @escaping (String) -> Void = { _ in }) -> Store<CounterState> {
  Store<CounterState>(
    reducer: counterReducer, state: nil, middleware: [limitMiddleware(), loggingMiddleware(log)])
}
