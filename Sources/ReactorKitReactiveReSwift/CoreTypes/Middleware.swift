/// A stage between `dispatch` and the reducer: turns each action into the actions to pass on
/// (none drops it, several produce several reductions), and may dispatch new ones.
///
/// Combinators apply to the output of the middleware they are called on:
///
/// ```swift
/// let middleware = Middleware<AppState>()
///   .filter { getState, action in !(action is Ignored) }
///   .sideEffect { getState, dispatch, action in print(action) }
/// ```
///
/// `dispatch` starts new actions at the top of the chain after the current one (queued, not
/// nested); `GetState` returns the store's current state.
public struct Middleware<State> {
  /// Dispatches actions to the store.
  public typealias DispatchFunction = (Action...) -> Void
  /// Returns the store's current state.
  public typealias GetState = () -> State

  /// Turns one action into the actions to pass on.
  @usableFromInline let transform: (GetState, @escaping DispatchFunction, Action) -> [Action]
  /// Whether this is ``init()``'s middleware, which a store can leave out.
  @usableFromInline let isIdentity: Bool

  /// Creates a middleware that passes every action through.
  public init() {
    transform = { _, _, action in [action] }
    isIdentity = true
  }

  init(_ transform: @escaping (GetState, @escaping DispatchFunction, Action) -> [Action]) {
    self.transform = transform
    isIdentity = false
  }

  /// Creates the middleware that runs `first`, then each of `rest`, each on what the previous
  /// one let through (see ``concat(_:)``).
  public init(_ first: Middleware<State>, _ rest: Middleware<State>...) {
    self = rest.reduce(first) { $0.concat($1) }
  }

  /// Runs `effect` on each action this middleware lets through, passing the action on unchanged.
  public func sideEffect(
    _ effect: @escaping (GetState, @escaping DispatchFunction, Action) -> Void
  ) -> Middleware<State> {
    Middleware { getState, dispatch, action in
      let actions = transform(getState, dispatch, action)
      for action in actions { effect(getState, dispatch, action) }
      return actions
    }
  }

  /// Runs `other` on each action this middleware lets through.
  public func concat(_ other: Middleware<State>) -> Middleware<State> {
    Middleware { getState, dispatch, action in
      transform(getState, dispatch, action).flatMap { other.transform(getState, dispatch, $0) }
    }
  }

  /// Replaces each action this middleware lets through with `transform`'s result.
  public func map(_ transform: @escaping (GetState, Action) -> Action) -> Middleware<State> {
    Middleware { getState, dispatch, action in
      self.transform(getState, dispatch, action).map { transform(getState, $0) }
    }
  }

  /// Replaces each action this middleware lets through with the actions `transform` returns
  /// (the former name of `flatMap(_:)`).
  @available(*, renamed: "flatMap(_:)")
  public func increase(_ transform: @escaping (GetState, Action) -> [Action]) -> Middleware<State> {
    flatMap(transform)
  }

  /// Replaces each action this middleware lets through with the actions `transform` returns:
  /// none drops it, several produce several reductions.
  public func flatMap(_ transform: @escaping (GetState, Action) -> [Action]) -> Middleware<State> {
    Middleware { getState, dispatch, action in
      self.transform(getState, dispatch, action).flatMap { transform(getState, $0) }
    }
  }

  /// Replaces each action this middleware lets through with `transform`'s result, dropping it
  /// when the result is `nil`.
  public func flatMap(_ transform: @escaping (GetState, Action) -> Action?) -> Middleware<State> {
    Middleware { getState, dispatch, action in
      self.transform(getState, dispatch, action).compactMap { transform(getState, $0) }
    }
  }

  /// Passes on only the actions, of those this middleware lets through, for which `isIncluded`
  /// returns `true`.
  public func filter(_ isIncluded: @escaping (GetState, Action) -> Bool) -> Middleware<State> {
    Middleware { getState, dispatch, action in
      transform(getState, dispatch, action).filter { isIncluded(getState, $0) }
    }
  }
}
