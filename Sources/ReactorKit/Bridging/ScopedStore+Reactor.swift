extension ScopedStore {
  /// The value at `path` of the child state turned into a reactor's mutation: the current
  /// value first, then one mutation each time a reduction changes the value.
  ///
  /// The scoped form of ``Store/slice(_:as:)``, for a reactor in a feature module that
  /// receives a ``ScopedStore`` instead of the app's store: merge it in
  /// `transform(mutation:)`.
  ///
  /// - Parameters:
  ///   - path: The part of the child state to observe.
  ///   - transform: Makes the mutation for a value, typically an enum case.
  /// - Returns: The mutations; the sequence never fails and completes when the root store is
  ///   freed.
  public func slice<Value: Equatable, Mutation>(
    _ path: KeyPath<State, Value>, as transform: @escaping (Value) -> Mutation
  ) -> Observable<Mutation> {
    slice(path).map(transform)
  }

  /// A sequence that dispatches `action` to the root store when subscribed, then emits
  /// `mutations`: the scoped form of ``Store/dispatchEffect(_:then:)``.
  ///
  /// - Parameters:
  ///   - action: The action to dispatch.
  ///   - mutations: The reactor's own mutations to emit after the dispatch; none by default.
  /// - Returns: A sequence that holds the root store until it ends or is disposed.
  public func dispatchEffect<Mutation>(
    _ action: any Action, then mutations: Observable<Mutation> = .empty()
  ) -> Observable<Mutation> {
    Observable.deferred {
      self.dispatch(action)
      return mutations
    }
  }
}
