extension Store {
  /// The value at `path` turned into a reactor's mutation: the current value first, then one
  /// mutation each time a reduction changes the value.
  ///
  /// The one-line form of `slice(path).map(transform)`, for a reactor that mirrors part of the
  /// global state in its own state. Merge it in `transform(mutation:)`:
  ///
  /// ```swift
  /// func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
  ///   .merge(mutation, provider.store.slice(\.session.user, as: Mutation.setUser))
  /// }
  /// ```
  ///
  /// The reactor's engine owns the subscription: it ends when the reactor is released (at
  /// once on Apple platforms; on Linux at the next delivery or the next periodic sweep of
  /// released reactors, whichever comes first). A released reactor never reduces a slice
  /// value. The store holds no reference to the reactor, and the observable holds the store,
  /// not the reactor: don't capture the reactor strongly in `transform`.
  ///
  /// - Parameters:
  ///   - path: The part of the state to observe.
  ///   - transform: Makes the mutation for a value, typically an enum case such as
  ///     `Mutation.setUser`.
  /// - Returns: The mutations; the sequence never fails and completes when the store is
  ///   freed.
  @inlinable
  public func slice<Value: Equatable, Mutation>(
    _ path: KeyPath<State, Value>, as transform: @escaping (Value) -> Mutation
  ) -> Observable<Mutation> {
    slice(path).map(transform)
  }

  /// A sequence that dispatches `action` to this store when subscribed, then emits
  /// `mutations`: a reactor's `mutate(action:)` changes global state and keeps its own
  /// mutations flowing, in one line.
  ///
  /// ```swift
  /// func mutate(action: Action) -> Observable<Mutation> {
  ///   switch action {
  ///   case .logOut:
  ///     return provider.store.dispatchEffect(SessionAction.logOut, then: .just(.setEditing(false)))
  ///   }
  /// }
  /// ```
  ///
  /// The dispatch is synchronous (see ``dispatch(_:)->()``): when the reactor
  /// subscribes, the action is reduced and every store subscriber notified, including the
  /// reactor's own slices, before the first of `mutations` is emitted. Each subscription
  /// dispatches once; nothing is dispatched until the sequence is subscribed.
  ///
  /// - Parameters:
  ///   - action: The global action to dispatch.
  ///   - mutations: The reactor's own mutations to emit after the dispatch; none by default.
  /// - Returns: A sequence that holds the store until it ends or is disposed.
  public func dispatchEffect<Mutation>(
    _ action: any Action, then mutations: Observable<Mutation> = .empty()
  ) -> Observable<Mutation> {
    Observable.deferred {
      self.dispatch(action)
      return mutations
    }
  }
}
