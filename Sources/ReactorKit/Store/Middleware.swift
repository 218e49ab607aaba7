/// A stage between `dispatch` and the reducer that can observe, transform, drop, multiply or
/// delay actions, and dispatch new ones.
///
/// A store runs its middleware in array order, each on what the previous one let through;
/// whatever the last one lets through is reduced, one reduction (and one new state) per
/// action. Two forms compose freely:
///
/// - The ReactiveReSwift form: a function from one action to the actions to pass on, built
///   with ``init(_:)`` and refined with ``sideEffect(_:)``, ``map(_:)``, ``filter(_:)``,
///   ``flatMap(_:)``, ``compactMap(_:)`` and ``concat(_:)``. Each combinator applies to the
///   *output* of the middleware it is called on: `m.map(f)` maps what `m` lets through.
/// - The Redux form, ``redux(_:)``: `(getState, dispatch) -> (next) -> (action) -> Void`,
///   for middleware that needs to act around `next`, for example to see the state after the
///   action was reduced.
///
/// ```swift
/// let logging = Middleware<AppState>().sideEffect { getState, _, action in
///   print("will reduce", action)
/// }
/// let analytics = Middleware<AppState>.redux { getState, dispatch in
///   { next in { action in
///     next(action)                       // reduces the action (and notifies subscribers)
///     track(action, getState())          // the state after it
///   } }
/// }
/// let store = Store(reducer: app, state: AppState(), middleware: [logging, analytics])
/// ```
///
/// `dispatch` starts a new action at the top of the chain; called while the store is
/// processing (as middleware usually is), it is queued and runs after the current action is
/// finished. `getState` returns the store's current state. Middleware may keep `dispatch`,
/// `getState` and `next` for later (an asynchronous side effect): they don't keep the store
/// alive, and once it is freed `dispatch` and `next` do nothing and `getState` returns the
/// last state.
///
/// `Middleware` is `Sendable` and the closures that make it are `@Sendable`, so a middleware
/// can be a constant (`static let logging = Middleware<AppState>().sideEffect { … }`). A
/// ``Store`` calls its middleware on whichever thread is processing, never on two threads at
/// once, but one middleware may serve several stores: keep per-store state inside
/// ``redux(_:)``'s body, which runs once per store, and shared state behind a lock.
public struct Middleware<State>: Sendable {
  /// Returns the store's current state.
  public typealias GetState = () -> State
  /// Sends an action to a store or to the next stage.
  public typealias Dispatch = (any Action) -> Void

  /// Connects the middleware to a store, once per store: given the store's `getState`,
  /// `dispatch` and effect runners (where ``effects(_:)`` registers its own), wraps the next
  /// stage into this stage.
  @usableFromInline
  let connect:
    @Sendable (@escaping GetState, @escaping Dispatch, StoreEffects) -> (@escaping Dispatch)
      -> Dispatch

  @inlinable
  init(
    connect:
      @escaping @Sendable (@escaping GetState, @escaping Dispatch, StoreEffects) -> (
        @escaping Dispatch
      ) -> Dispatch
  ) {
    self.connect = connect
  }

  /// Creates a middleware that passes every action through unchanged.
  @inlinable
  public init() {
    connect = { _, _, _ in { next in next } }
  }

  /// Creates a middleware from a function that turns one action into the actions to pass on
  /// (ReactiveReSwift style).
  ///
  /// - Parameter transform: Receives `getState`, `dispatch` and the action; returns the
  ///   actions to pass on, in order: `[]` drops the action, `[action]` passes it through,
  ///   several produce several reductions.
  @inlinable
  public init(
    _ transform:
      @escaping @Sendable (@escaping GetState, @escaping Dispatch, any Action) -> [any Action]
  ) {
    connect = { getState, dispatch, _ in
      { next in
        { action in
          for output in transform(getState, dispatch, action) { next(output) }
        }
      }
    }
  }

  /// Creates a middleware in the Redux form.
  ///
  /// `body` is called once per store with the store's `getState` and `dispatch`; it returns a
  /// function that receives `next` (the rest of the chain, ending in the reducer) and returns
  /// the function called with each action. Call `next` to pass an action on; while the
  /// middleware is running, `next` reduces the action and notifies subscribers before it
  /// returns. Called later (for example from another thread), `next` waits for the store's
  /// turn and reduces the action without running the middleware chain again.
  ///
  /// - Parameter body: `(getState, dispatch) -> (next) -> (action) -> Void`.
  @inlinable
  public static func redux(
    _ body:
      @escaping @Sendable (@escaping GetState, @escaping Dispatch) -> (@escaping Dispatch)
      -> Dispatch
  ) -> Middleware<State> {
    Middleware(connect: { getState, dispatch, _ in body(getState, dispatch) })
  }

  /// Runs `effect` on each action this middleware lets through, before passing it on.
  ///
  /// The effect cannot change the action; use it for logging, analytics or to start work
  /// that dispatches later.
  @inlinable
  public func sideEffect(
    _ effect: @escaping @Sendable (@escaping GetState, @escaping Dispatch, any Action) -> Void
  ) -> Middleware<State> {
    appendingStep { getState, dispatch, next, action in
      effect(getState, dispatch, action)
      next(action)
    }
  }

  /// Replaces each action this middleware lets through with `transform`'s result.
  @inlinable
  public func map(
    _ transform: @escaping @Sendable (@escaping GetState, any Action) -> any Action
  ) -> Middleware<State> {
    appendingStep { getState, _, next, action in next(transform(getState, action)) }
  }

  /// Passes on only the actions, among those this middleware lets through, for which
  /// `isIncluded` returns `true`; the others are dropped and never reach the reducer.
  @inlinable
  public func filter(
    _ isIncluded: @escaping @Sendable (@escaping GetState, any Action) -> Bool
  ) -> Middleware<State> {
    appendingStep { getState, _, next, action in
      if isIncluded(getState, action) { next(action) }
    }
  }

  /// Replaces each action this middleware lets through with the actions `transform`
  /// returns, passed on in order: none drops it, several produce several reductions.
  @inlinable
  public func flatMap(
    _ transform: @escaping @Sendable (@escaping GetState, any Action) -> [any Action]
  ) -> Middleware<State> {
    appendingStep { getState, _, next, action in
      for output in transform(getState, action) { next(output) }
    }
  }

  /// Replaces each action this middleware lets through with `transform`'s result, dropping
  /// it when the result is `nil`.
  @inlinable
  public func compactMap(
    _ transform: @escaping @Sendable (@escaping GetState, any Action) -> (any Action)?
  ) -> Middleware<State> {
    appendingStep { getState, _, next, action in
      if let output = transform(getState, action) { next(output) }
    }
  }

  /// This middleware followed by `step`, which receives each action this one lets through,
  /// with the store's `getState` and `dispatch` and the next stage (the shared shape of
  /// ``sideEffect(_:)``, ``map(_:)``, ``filter(_:)``, ``flatMap(_:)`` and ``compactMap(_:)``).
  @inlinable
  func appendingStep(
    _ step:
      @escaping @Sendable (
        @escaping GetState, @escaping Dispatch, @escaping Dispatch, any Action
      ) -> Void
  ) -> Middleware<State> {
    let connect = self.connect
    return Middleware(connect: { getState, dispatch, effects in
      let stage = connect(getState, dispatch, effects)
      return { next in
        stage { action in step(getState, dispatch, next, action) }
      }
    })
  }

  /// A middleware that runs this one, then `other` on each action this one lets through.
  ///
  /// `[a, b]` in a store's middleware array behaves like `a.concat(b)`.
  @inlinable
  public func concat(_ other: Middleware<State>) -> Middleware<State> {
    let first = self.connect
    let second = other.connect
    return Middleware(connect: { getState, dispatch, effects in
      let firstStage = first(getState, dispatch, effects)
      let secondStage = second(getState, dispatch, effects)
      return { next in firstStage(secondStage(next)) }
    })
  }
}
