/// A function that returns the state after `action`. Keep reducers pure; a ``Store`` calls its
/// reducer on the thread that is processing, one action at a time.
public typealias Reducer<State> = (_ action: Action, _ state: State) -> State

/// A reducer that runs `first`, then each of `rest` in order, each on the state the previous one
/// returned.
public func concatReducers<State>(
  _ first: @escaping Reducer<State>, _ rest: Reducer<State>...
) -> Reducer<State> {
  concatReducers(first: first, rest: rest)
}

/// A reducer that runs `first`, then each reducer of `rest` in order, each on the state the
/// previous one returned (the array form of ``concatReducers(_:_:)``).
public func concatReducers<State>(
  first: @escaping Reducer<State>, rest: [Reducer<State>]
) -> Reducer<State> {
  { action, state in
    rest.reduce(first(action, state)) { state, reducer in reducer(action, state) }
  }
}
