/// Wraps the two stages of a reactor's pipeline that run the reactor's own code, `mutate` and
/// `reduce`, without changing the reactor: the hook point for logging, metrics and debugging
/// tools.
///
/// Each closure receives the stage's input and `next`, the rest of the stage (other hooks,
/// then the reactor's method). Call `next` exactly once and return its result to observe the
/// stage; a hook may also measure the time `next` takes.
///
/// ```swift
/// let subscription = reactor.addHook(ReactorHook(
///   mutate: { action, next in
///     print("action", action)
///     return next(action)
///   },
///   reduce: { state, mutation, next in
///     let newState = next(state, mutation)
///     print("mutation", mutation, "->", newState)
///     return newState
///   }))
/// ```
///
/// > Note: Hooks are called on the thread that processes the reactor's actions, serially for
/// > one reactor, like `mutate(action:)` and `reduce(state:mutation:)` themselves. They do
/// > not run while the reactor's stub is enabled.
public struct ReactorHook<Action, Mutation, State> {
  /// The rest of the `mutate` stage.
  public typealias Mutate = (Action) -> Observable<Mutation>
  /// The rest of the `reduce` stage.
  public typealias Reduce = (State, Mutation) -> State

  let mutate: ((Action, Mutate) -> Observable<Mutation>)?
  let reduce: ((State, Mutation, Reduce) -> State)?

  /// Creates a hook.
  ///
  /// - Parameters:
  ///   - mutate: Wraps `mutate(action:)`: receives each action (after
  ///     `transform(action:)`) and the rest of the stage. `nil` leaves the stage alone.
  ///   - reduce: Wraps `reduce(state:mutation:)`: receives the previous state, each mutation
  ///     (after `transform(mutation:)`) and the rest of the stage; returns the new state.
  ///     `nil` leaves the stage alone.
  public init(
    mutate: ((Action, _ next: Mutate) -> Observable<Mutation>)? = nil,
    reduce: ((State, Mutation, _ next: Reduce) -> State)? = nil
  ) {
    self.mutate = mutate
    self.reduce = reduce
  }
}

extension Reactor {
  /// Installs `hook` around this reactor's `mutate` and `reduce` stages.
  ///
  /// The hook applies from the next action or mutation the reactor processes: at once when
  /// the reactor is idle on the calling thread, otherwise after the work in progress. Hooks
  /// installed before the reactor's streams exist apply from the start. Several hooks nest in
  /// installation order: the first installed is the outermost.
  ///
  /// The reactor does not retain anything new: the hook lives in the reactor's stream
  /// storage and is released with it, or when the returned disposable is disposed.
  ///
  /// - Parameter hook: The hook to install.
  /// - Returns: A disposable that removes the hook (from the next item processed on).
  @discardableResult
  public func addHook(_ hook: ReactorHook<Action, Mutation, State>) -> Disposable {
    ReactorCore.of(self).addHook(hook)
  }
}
