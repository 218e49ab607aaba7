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
  // Safety: the publisher, the native store and the bag synchronise themselves.
  /// The middleware type of this store.
  public typealias StoreMiddleware = Middleware<ObservableProperty.ValueType>
  /// The reducer type of this store.
  public typealias StoreReducer = Reducer<ObservableProperty.ValueType>

  /// The native store this store runs on: every action and state goes through it.
  public let reactorKitStore: ReactorKit.Store<ObservableProperty.ValueType>

  @usableFromInline let publisher: StatePublisher<ObservableProperty>
  @usableFromInline let disposeBag = SubscriptionReferenceBag()
  /// The middleware's gate; `nil` without middleware.
  @usableFromInline let gate: MiddlewareGate?
  @usableFromInline var stateSubscription: Disposable?

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - reducer: Applies each action to the state.
  ///   - observable: Holds the initial state, and receives every new state.
  ///   - middleware: Runs on each dispatched action before it is reduced.
  @inlinable
  public required init(
    reducer: @escaping StoreReducer, observable: ObservableProperty,
    middleware: StoreMiddleware = Middleware()
  ) {
    let reduce = UncheckedSendable(reducer)
    let gate = middleware.isIdentity ? nil : MiddlewareGate()
    let stages = gate.map { [MiddlewareStage.make(middleware, gate: $0)] } ?? []
    self.gate = gate
    reactorKitStore = ReactorKit.Store(
      reducer: ReactorKit.Reducer.pure { state, action in reduce.value(action, state) },
      state: observable.value, middleware: stages)
    let publisher = StatePublisher(observable)
    self.publisher = publisher
    stateSubscription = reactorKitStore.state.subscribe(onNext: { state in
      publisher.receive(state)
    })
  }

  deinit {
    stateSubscription?.dispose()
  }

  /// The observable the store sets each new state on.
  @inlinable
  open var observable: ObservableProperty {
    publisher.observable
  }

  /// Dispatches each of `actions` in order: through the middleware, then the reducer.
  ///
  /// Called from outside the store's processing, it returns after the actions have been reduced
  /// and their states set on ``observable``. Called from inside it, it queues them. Thread-safe.
  @inlinable
  public final func dispatch(_ actions: Action...) {
    for action in actions { dispatch(action) }
  }

  /// Dispatches `action` (the one-action form of ``dispatch(_:)-(Action...)``, which spares the
  /// variadic array).
  @inlinable
  public final func dispatch(_ action: Action) {
    let native = reactorKitStore
    gate?.flushHeld { native.dispatch($0) }
    native.dispatch(action)
  }

  /// Dispatches every action `stream` sends, until the store is freed.
  @inlinable
  public final func dispatch<S: StreamType>(_ stream: S) where S.ValueType: Action {
    disposeBag += stream.subscribe { [weak self] action in
      self?.dispatch(action)
    }
  }
}

// `StatePublisher` and its fields are declared in `Internal/StatePublisherStorage.swift`.
extension StatePublisher {
  /// The observable.
  @inlinable
  var observable: ObservableProperty {
    if ObservableProperty.self is AnyObject.Type { return observableField }
    lock.lock()
    defer { lock.unlock() }
    return observableField
  }

  /// Publishes each state from the native store but the first.
  @inlinable
  func receive(_ state: ObservableProperty.ValueType) {
    if hasReceivedCurrentState {
      publish(state)
    } else {
      hasReceivedCurrentState = true
    }
  }

  /// Sets `state` on the observable (outside the lock: it calls subscribers). A value-type
  /// observable is written back.
  @inlinable
  func publish(_ state: ObservableProperty.ValueType) {
    var observable = self.observable
    if ObservableProperty.self is AnyObject.Type {
      observable.value = state  // a class: the store's own reference, which never changes
      return
    }
    observable.value = state
    lock.lock()
    observableField = observable
    lock.unlock()
  }
}
