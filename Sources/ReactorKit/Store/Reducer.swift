import Synchronization

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
/// > Note: `Reducer` is not `Sendable`, because it holds a closure that is not `@Sendable`.
/// > A ``Store`` calls its reducer on whichever thread is processing, but never on two threads
/// > at once. Don't capture mutable state in a reducer that several stores share.
@frozen
public struct Reducer<State> {
  @usableFromInline let body: (inout State, any Action) -> Void

  /// Creates a reducer that mutates the state in place.
  ///
  /// - Parameter reduce: Applies an action to the state. Ignore actions you don't handle.
  @inlinable
  public init(_ reduce: @escaping (inout State, any Action) -> Void) {
    body = reduce
  }

  /// Creates a reducer from a function that returns the new state (ReactiveReSwift style).
  ///
  /// - Parameter reduce: Returns the state after `action`; return the state unchanged for
  ///   actions you don't handle.
  @inlinable
  public init(pure reduce: @escaping (any Action, State) -> State) {
    body = { state, action in state = reduce(action, state) }
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
      return Reducer { state, action in
        for body in bodies { body(&state, action) }
      }
    }
  }

  /// A reducer that handles actions of one type and ignores every other action.
  ///
  /// - Parameters:
  ///   - type: The action type handled.
  ///   - reduce: Applies an action of that type to the state.
  @inlinable
  public static func on<A: Action>(
    _ type: A.Type, _ reduce: @escaping (inout State, A) -> Void
  ) -> Reducer<State> {
    let misses = ActionCastMisses()
    return Reducer { state, action in
      if let action = castAction(action, to: A.self, misses: misses) { reduce(&state, action) }
    }
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
    return Reducer<Root> { root, action in body(&root[keyPath: path], action) }
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
    return Reducer<Root> { root, action in
      guard root[keyPath: path] != nil else { return }
      body(&root[keyPath: path]!, action)
    }
  }
}
