/// The interface of a ReSwift store: state, dispatch and subscriptions. ``Store`` implements
/// it.
public protocol StoreType: DispatchingStoreType {
  /// The state the store holds.
  associatedtype State

  /// The current state.
  var state: State! { get }

  /// The function every `dispatch` goes through: the middleware, then the reducer.
  var dispatchFunction: DispatchFunction! { get }

  /// Subscribes `subscriber` to the whole state: it receives the current state at once, then
  /// every new one.
  func subscribe<S: StoreSubscriber>(_ subscriber: S) where S.StoreSubscriberStateType == State

  /// Subscribes `subscriber` to what `transform` selects from the state: it receives the
  /// current selection at once, then every new value the subscription lets through.
  func subscribe<SelectedState, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState

  /// Subscribes `subscriber` to an `Equatable` selection: like the overload for any
  /// selection, but values equal to the previous one are skipped when the store skips repeats
  /// automatically. Declared here, as in ReSwift, so code generic over `StoreType` reaches it.
  func subscribe<SelectedState: Equatable, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState

  /// Ends the subscription of `subscriber`.
  func unsubscribe(_ subscriber: any AnyStoreSubscriber)

  /// Calls `actionCreator` with the current state and dispatches the action it returns.
  func dispatch(_ actionCreator: ActionCreator)

  /// Calls `asyncActionCreator`, which later hands back an action creator to dispatch.
  func dispatch(_ asyncActionCreator: AsyncActionCreator)

  /// Calls `asyncActionCreator` like the overload without a callback, then calls `callback`
  /// with the state after the action was reduced.
  func dispatch(_ asyncActionCreator: AsyncActionCreator, callback: DispatchCallback?)

  /// Receives the state after an asynchronously created action was reduced.
  associatedtype DispatchCallback = (State) -> Void

  /// A function that may create an action from the current state.
  associatedtype ActionCreator = (_ state: State, _ store: any StoreType) -> Action?

  /// A function that creates an action creator asynchronously and hands it to its callback.
  associatedtype AsyncActionCreator =
    (_ state: State, _ store: any StoreType, _ actionCreatorCallback: (ActionCreator) -> Void) ->
    Void
}
