extension ScopedStore {
  /// An observable model of the value at `path` of the child state, for SwiftUI and the
  /// Observation framework; its ``ObservedStore/dispatch(_:)`` dispatches to the root store.
  ///
  /// The model is told about a new value only when the value changes (by `==`), evaluated
  /// once per reduction and shared with the root store's ``Store/slice(_:)`` of the joined key
  /// path, so a SwiftUI feature built on a ``ScopedStore`` never sees the app state.
  ///
  /// - Parameter path: The part of the child state to observe.
  /// - Returns: A model that holds the root store.
  @MainActor
  public func observed<Value: Equatable>(_ path: KeyPath<State, Value>) -> ObservedStore<Value> {
    ObservedStore(states: slice(path), current: currentState[keyPath: path], dispatch: dispatch)
  }

  /// An observable model of the value at `path` of the child state, which is not
  /// `Equatable`: the model receives the value after every reduction and compares the
  /// properties read through it (see ``ObservedStore``).
  ///
  /// - Parameter path: The part of the child state to observe.
  /// - Returns: A model that holds the root store.
  @MainActor
  public func observed<Value>(_ path: KeyPath<State, Value>) -> ObservedStore<Value> {
    ObservedStore.everyValue(at: path, of: currentState, select: select, dispatch)
  }

  /// An observable model of the whole child state, following ``state``.
  ///
  /// - Returns: A model that holds the root store.
  @MainActor
  public func observed() -> ObservedStore<State> {
    ObservedStore(states: state, current: currentState, dispatch: dispatch)
  }
}
