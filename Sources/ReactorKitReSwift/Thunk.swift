/// An action that carries work instead of data: ReSwift-Thunk's `Thunk`. Dispatched to a store
/// whose middleware includes ``createThunkMiddleware()``, its body runs with the store's
/// `dispatch` and `getState` and the thunk itself is not reduced.
///
/// ```swift
/// let fetchUser = Thunk<AppState> { dispatch, getState in
///   guard getState()?.user == nil else { return }
///   dispatch(UserLoading())
///   api.fetchUser { user in dispatch(UserLoaded(user: user)) }
/// }
/// store.dispatch(fetchUser)
/// ```
///
/// ReSwift-Thunk apps replace `import ReSwiftThunk` with `import ReactorKitReSwift`; tests that
/// use `ExpectThunk` import `ReactorKitReSwiftTesting`.
///
/// The body runs while the store processes the thunk, so, as for any middleware here, an action
/// it dispatches synchronously is queued and reduced right after the body returns (ReSwift
/// reduces it at once, nested): a `getState()` that follows such a `dispatch` inside the body
/// still sees the state before it. An action dispatched later (from a callback) is reduced at
/// once, as in ReSwift.
public struct Thunk<State>: Action {
  /// The work: called with the store's `dispatch` and `getState` (`nil` once the store is
  /// freed).
  let body: (_ dispatch: @escaping DispatchFunction, _ getState: @escaping () -> State?) -> Void

  /// Creates a thunk that runs `body` when the thunk middleware receives it.
  public init(
    body:
      @escaping (_ dispatch: @escaping DispatchFunction, _ getState: @escaping () -> State?)
      -> Void
  ) {
    self.body = body
  }
}

/// The middleware that runs thunks: a ``Thunk`` of the store's `State` has its body run with
/// the store's `dispatch` and `getState` and goes no further; every other action is passed on
/// unchanged. ReSwift-Thunk's `createThunkMiddleware()`.
///
/// ```swift
/// let store = Store<AppState>(
///   reducer: appReducer, state: nil, middleware: [createThunkMiddleware()])
/// ```
///
/// A thunk of another state type is not run: it is passed on like any other action.
public func createThunkMiddleware<State>() -> Middleware<State> {
  { dispatch, getState in
    { next in
      { action in
        if let thunk = action as? Thunk<State> {
          thunk.body(dispatch, getState)
        } else {
          next(action)
        }
      }
    }
  }
}
