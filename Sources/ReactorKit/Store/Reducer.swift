import ReactorKitStreams

/// A function that applies an ``Action`` to a state, in place.
///
/// Reducers are pure: no side effects (those belong in ``Middleware``), no dispatching. They
/// compose: each feature owns the reducer of its own slice of state, and the app lifts and
/// combines them into the reducer of the whole app state.
///
/// ```swift
/// let counter = Reducer<Int>.on(CounterAction.self) { count, action in
///   switch action {
///   case .increment: count += 1
///   case .add(let amount): count += amount
///   }
/// }
/// let app = Reducer<AppState>.combine(
///   counter.lift(\.count),
///   session.lift(\.session))
/// ```
///
/// Reducers can't throw: model failures as state, or as actions that a middleware dispatches.
/// A reducer that traps stops the program; the store doesn't catch it.
///
/// `Reducer` is `Sendable` and takes `@Sendable` closures, so a reducer can be a constant:
/// `static let reducer = Reducer<AppState>.combine(…)`. A ``Store`` calls its reducer on
/// whichever thread is processing, never on two threads at once, but one reducer may serve
/// several stores on several threads. Keep it pure: compute the new state from the state
/// and the action only, capture nothing mutable, and leave side effects to ``Middleware``.
@frozen
public struct Reducer<State> {
  /// Built only from the `@Sendable` closures the initialisers receive, key paths and
  /// `Sendable` values. Not declared `@Sendable` itself: `Reducer.on`'s closure uses the
  /// metatype of its action type, which Swift 6.2 can't prove sendable for every compiler
  /// the package supports, and a cast to `@Sendable` would cost two reabstraction thunks
  /// per reduction.
  @usableFromInline let body: (inout State, any Action) -> Void

  /// Creates a reducer that mutates the state in place.
  ///
  /// - Parameter reduce: Applies an action to the state. Ignore actions you don't handle.
  @inlinable
  public init(_ reduce: @escaping @Sendable (inout State, any Action) -> Void) {
    body = reduce
  }

  /// Creates a reducer from a closure that captures only `Sendable` values, key paths and
  /// the bodies of other reducers.
  @inlinable
  init(unchecked reduce: @escaping (inout State, any Action) -> Void, _: Void) {
    body = reduce
  }

  /// Catches a closure whose single expression has a value, which a reducer would drop:
  /// usually one written in ReSwift's order, `{ action, state in state }`.
  @available(
    *, deprecated,
    message:
      "a reducer's closure takes (state, action), mutates the state in place and returns nothing; this one's value is dropped, so the state does not change. Write { state, action in ... } and mutate `state`, use Reducer.pure { state, action in ... } to return a new state, or write `_ = ...` to drop a value on purpose"
  )
  @inlinable
  public init<Ignored>(_ reduce: @escaping @Sendable (inout State, any Action) -> Ignored) {
    body = { state, action in _ = reduce(&state, action) }
  }

  /// Creates a reducer from a function that returns the new state, with its parameters in
  /// ReactiveReSwift's order, `(action, state)`.
  ///
  /// Every other reducer form takes `(state, action)`; use ``pure(_:)``.
  @available(
    *, deprecated, renamed: "pure(_:)",
    message: "use Reducer.pure { state, action in ... }: its parameters are (state, action)"
  )
  @inlinable
  public init(pure reduce: @escaping @Sendable (any Action, State) -> State) {
    body = { state, action in state = reduce(action, state) }
  }

  /// A reducer made of a function that returns the new state.
  ///
  /// Its parameters come in the same order as every other reducer form's, `(state, action)`;
  /// a closure written in ReSwift's order, `{ action, state in … }`, does not compile.
  ///
  /// ```swift
  /// let session = Reducer<Session>.pure { session, action in
  ///   guard case SessionAction.logIn(let user) = action else { return session }
  ///   return Session(user: user)
  /// }
  /// ```
  ///
  /// - Parameter reduce: Returns the state after `action`; return the state unchanged for
  ///   actions you don't handle.
  /// - Returns: A reducer that replaces the state with what `reduce` returns.
  @inlinable
  public static func pure(_ reduce: @escaping @Sendable (State, any Action) -> State)
    -> Reducer<State>
  {
    Reducer(unchecked: { state, action in state = reduce(state, action) }, ())
  }

  /// Applies `action` to `state`.
  @inlinable
  public func reduce(_ state: inout State, _ action: any Action) {
    body(&state, action)
  }

  /// A reducer that runs `reducers` one after the other on the same state, in order.
  @inlinable
  public static func combine(_ reducers: Reducer<State>...) -> Reducer<State> {
    combine(reducers)
  }

  /// A reducer that runs `reducers` one after the other on the same state, in order.
  ///
  /// - Complexity: Each action costs one call per reducer.
  @inlinable
  public static func combine(_ reducers: [Reducer<State>]) -> Reducer<State> {
    switch reducers.count {
    case 0:
      return Reducer { _, _ in }
    case 1:
      return reducers[0]
    default:
      let bodies = ContiguousArray(reducers.lazy.map(\.body))
      return Reducer(
        unchecked: { state, action in
          for body in bodies { body(&state, action) }
        }, ())
    }
  }

  /// A reducer that handles actions of one type and ignores every other action.
  ///
  /// - Parameters:
  ///   - type: The action type handled.
  ///   - reduce: Applies an action of that type to the state.
  @inlinable
  public static func on<A: Action>(
    _ type: A.Type, _ reduce: @escaping @Sendable (inout State, A) -> Void
  ) -> Reducer<State> {
    let misses = ActionCastMisses()
    return Reducer(
      unchecked: { state, action in
        if let action = castAction(action, to: A.self, misses: misses) { reduce(&state, action) }
      }, ())
  }

  /// This reducer applied to the part of a larger state at `path`.
  ///
  /// The child state is mutated in place through the key path, so lifting costs no copy of
  /// the child.
  ///
  /// - Parameter path: Where this reducer's state lives in the parent state.
  /// - Returns: A reducer of the parent state.
  @inlinable
  public func lift<Root>(_ path: WritableKeyPath<Root, State>) -> Reducer<Root> {
    let body = self.body
    return Reducer<Root>(unchecked: { root, action in body(&root[keyPath: path], action) }, ())
  }

  /// This reducer applied to an optional part of a larger state at `path`, when present.
  ///
  /// Actions are ignored while the child state is `nil`.
  ///
  /// - Parameter path: Where this reducer's state lives in the parent state.
  /// - Returns: A reducer of the parent state.
  @inlinable
  public func lift<Root>(_ path: WritableKeyPath<Root, State?>) -> Reducer<Root> {
    let body = self.body
    return Reducer<Root>(
      unchecked: { root, action in
        guard root[keyPath: path] != nil else { return }
        body(&root[keyPath: path]!, action)
      }, ())
  }
}

extension Reducer: @unchecked Sendable {
  // Safety: `body` is made only from `@Sendable` closures, key paths (immutable objects),
  // `ActionCastMisses` (atomics) and other reducers' bodies; it keeps no other state.
}
