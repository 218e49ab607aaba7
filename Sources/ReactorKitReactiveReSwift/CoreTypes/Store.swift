import ReactorKit

/// A ReactiveReSwift store running on a `ReactorKit.Store`: each dispatched action runs through
/// the middleware and the reducer, and each new state is set on ``observable``, which
/// subscribers observe.
///
/// ```swift
/// let store = Store(
///   reducer: appReducer, observable: ObservableProperty(AppState()), middleware: logging)
/// store.observable.subscribe { state in render(state) }
/// store.dispatch(CounterAction.increase)
/// ```
///
/// The native store it runs on is ``reactorKitStore``: hand its slices to reactors, attach
/// plugins or the inspector to it, or wrap it in a `TestStore`, without a second store.
///
/// ## Differences from ReactiveReSwift
///
/// - Thread-safe: dispatch from any thread. Actions are reduced one at a time in one total
///   order, and states are set on ``observable`` in that order, on the processing thread.
/// - A `dispatch` from inside the store's processing (middleware, the reducer, a subscriber of
///   ``observable``) is queued and runs after the current action, instead of nested inside it.
/// - The native store holds the state: it starts from the observable's value, and a value set
///   on ``observable`` by other code is not seen by the reducer (dispatch an action instead).
open class Store<ObservableProperty: ObservablePropertyType>: @unchecked Sendable {
  // Safety: `storedObservable` is guarded by `lock` (it is set on the processing thread only,
  // serially); the native store and the bag synchronise themselves.
  /// The middleware type of this store.
  public typealias StoreMiddleware = Middleware<ObservableProperty.ValueType>
  /// The reducer type of this store.
  public typealias StoreReducer = Reducer<ObservableProperty.ValueType>

  /// The native store this store runs on: every action and state goes through it.
  public let reactorKitStore: ReactorKit.Store<ObservableProperty.ValueType>

  private let lock = Lock()
  private var storedObservable: ObservableProperty
  private let disposeBag = SubscriptionReferenceBag()
  private var stateSubscription: Disposable?

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - reducer: Applies each action to the state.
  ///   - observable: Holds the initial state, and receives every new state.
  ///   - middleware: Runs on each dispatched action before it is reduced.
  public required init(
    reducer: @escaping StoreReducer, observable: ObservableProperty,
    middleware: StoreMiddleware = Middleware()
  ) {
    let reduce = UncheckedSendable(reducer)
    let stages = middleware.isIdentity ? [] : [MiddlewareStage.make(middleware)]
    reactorKitStore = ReactorKit.Store(
      reducer: ReactorKit.Reducer(pure: { action, state in reduce.value(action, state) }),
      state: observable.value, middleware: stages)
    storedObservable = observable
    var isCurrentState = true
    stateSubscription = reactorKitStore.state.subscribe(onNext: { [weak self] state in
      if isCurrentState {
        isCurrentState = false
      } else {
        self?.publish(state)
      }
    })
  }

  deinit {
    stateSubscription?.dispose()
  }

  /// The observable the store sets each new state on.
  open var observable: ObservableProperty {
    lock.withLock { storedObservable }
  }

  private func publish(_ state: ObservableProperty.ValueType) {
    var observable = self.observable
    observable.value = state
    lock.withLock { storedObservable = observable }
  }

  /// Dispatches each of `actions` in order: through the middleware, then the reducer.
  ///
  /// Called from outside the store's processing, it returns after the actions have been reduced
  /// and their states set on ``observable``. Called from inside it, it queues them. Thread-safe.
  public func dispatch(_ actions: Action...) {
    for action in actions { reactorKitStore.dispatch(action) }
  }

  /// Dispatches every action `stream` sends, until the store is freed.
  public func dispatch<S: StreamType>(_ stream: S) where S.ValueType: Action {
    disposeBag += stream.subscribe { [weak self] action in
      self?.reactorKitStore.dispatch(action)
    }
  }
}
