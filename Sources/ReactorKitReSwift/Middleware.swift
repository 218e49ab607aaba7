/// A function that sends an action on: a store's `dispatch`, or the next middleware.
public typealias DispatchFunction = (Action) -> Void

/// A stage between `dispatch` and the reducer, in the Redux form:
/// `(dispatch, getState) -> (next) -> (action) -> Void`.
///
/// `dispatch` starts a new action at the top of the chain (called while the store is processing,
/// as middleware usually is, it is queued and runs after the current action); `getState`
/// returns the store's current state (`nil` once the store is freed); `next` passes the action
/// on towards the reducer and returns after it was reduced and subscribers were notified.
public typealias Middleware<State> =
  (@escaping DispatchFunction, @escaping () -> State?) -> (@escaping DispatchFunction) ->
  DispatchFunction
