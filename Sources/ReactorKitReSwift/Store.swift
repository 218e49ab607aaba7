import ReactorKit

/// A ReSwift store running on a `ReactorKit.Store`: one state, changed only by dispatched
/// actions, each run through the middleware and the reducer, with every new state delivered to
/// subscribers.
///
/// ```swift
/// let store = Store<AppState>(reducer: appReducer, state: nil)
/// store.subscribe(counterView) { $0.select(\.counter) }
/// store.dispatch(CounterActionIncrease())
/// ```
///
/// The native store it runs on is ``reactorKitStore``: hand its slices to reactors, attach
/// plugins or the inspector to it, or wrap it in a `TestStore`, without a second store.
///
/// ## Differences from ReSwift
///
/// - Thread-safe: `dispatch`, `subscribe`, `unsubscribe` and the properties work from any
///   thread. Actions are reduced one at a time in one total order (ReSwift traps instead).
/// - A `dispatch` from inside the store's processing (a middleware, the reducer or a
///   subscriber) is queued and runs after the current action has been reduced and every
///   subscriber notified (ReSwift runs it at once, nested, and traps for a reducer).
/// - Subscribers are notified in the order they subscribed.
/// - A `nil` initial state is built by reducing ``ReSwiftInit`` directly; middleware does not
///   see that action.
open class Store<State>: StoreType, @unchecked Sendable {
  // Safety: `dispatchFunctionLocked`, `subscriptions`, `deliveryList`, `vacantSlots` and the
  // boxes' `deliverySlot` are guarded by `lock`; `fanOutSubscription` is set once in `init`; the middleware chain and the native store synchronise themselves.
  /// The native store this store runs on: every action, state and subscription goes through it.
  public let reactorKitStore: ReactorKit.Store<State>

  /// Whether subscriptions of an `Equatable` state or selection skip values equal to the
  /// previous one (the `automaticallySkipsRepeats` of ``init(reducer:state:middleware:automaticallySkipsRepeats:)``).
  public let subscriptionsAutomaticallySkipRepeats: Bool

  @usableFromInline let lock = Lock()
  @usableFromInline let chain: MiddlewareChain<State>
  @usableFromInline var dispatchFunctionLocked: DispatchFunction?
  /// Whether ``dispatchFunction`` was replaced: until then `dispatch` goes straight to the
  /// native store.
  @usableFromInline let hasCustomDispatchFunction = AtomicBox<Bool>(false)
  @usableFromInline var subscriptions: [ObjectIdentifier: SubscriptionBox<State>] = [:]
  /// The subscriptions in the order they are notified (the order they were made); a removed
  /// one leaves a `nil` slot (each box knows its slot, so removing and replacing a subscriber
  /// take constant time), and the list is compacted once half of it is vacant.
  @usableFromInline var deliveryList: [SubscriptionBox<State>?] = []
  /// The number of `nil` slots in ``deliveryList``.
  @usableFromInline var vacantSlots = 0
  /// The native subscription that feeds ``fanOut(_:)``.
  @usableFromInline var fanOutSubscription: Disposable?

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - reducer: Applies each action to the state.
  ///   - state: The initial state; when `nil`, the reducer builds it from ``ReSwiftInit`` and a
  ///     `nil` state.
  ///   - middleware: Stages each dispatched action runs through, in order, before it is
  ///     reduced. Replaceable later through ``middleware``.
  ///   - automaticallySkipsRepeats: Whether subscriptions of an `Equatable` state or selection
  ///     skip values equal to the previous one.
  @inlinable
  public required init(
    reducer: @escaping Reducer<State>,
    state: State?,
    middleware: [Middleware<State>] = [],
    automaticallySkipsRepeats: Bool = true
  ) {
    let initialState = state ?? reducer(ReSwiftInit(), nil)
    let reduce = UncheckedSendable(reducer)
    let chain = MiddlewareChain<State>()
    let native = ReactorKit.Store(
      reducer: ReactorKit.Reducer.pure { state, action in reduce.value(action, state) },
      state: initialState,
      middleware: [chain.stage])
    self.chain = chain
    reactorKitStore = native
    subscriptionsAutomaticallySkipRepeats = automaticallySkipsRepeats
    dispatchFunctionLocked = { action in native.dispatch(action) }
    if !middleware.isEmpty {
      self.middleware = middleware
    }
    fanOutSubscription = native.state.subscribe(onNext: { [weak self] state in
      self?.fanOut(state)
    })
  }

  deinit {
    fanOutSubscription?.dispose()
  }

  /// The current state: the state after the last reduction. Readable from any thread.
  @inlinable
  public var state: State! {
    reactorKitStore.currentState
  }

  /// The function ``dispatch(_:)-(Action)`` calls: by default it sends the action to the
  /// native store, which runs it through ``middleware`` and the reducer. Replace it to enhance
  /// the store; setting ``middleware`` restores the default.
  @inlinable
  public var dispatchFunction: DispatchFunction! {
    get {
      lock.lock()
      defer { lock.unlock() }
      return dispatchFunctionLocked
    }
    set {
      lock.withLock {
        dispatchFunctionLocked = newValue
        hasCustomDispatchFunction.store(true, ordering: .releasing)
      }
    }
  }

  /// The middleware, in the order each action runs through it. Setting it replaces the chain
  /// for the actions that start after it (and restores the default ``dispatchFunction``).
  @inlinable
  public var middleware: [Middleware<State>] {
    get { chain.currentMiddleware }
    set {
      let generation = chain.replace(with: newValue)
      let built = makeChain(newValue)
      if chain.install(built, for: generation) {
        let native = reactorKitStore
        lock.withLock {
          dispatchFunctionLocked = { action in native.dispatch(action) }
          hasCustomDispatchFunction.store(false, ordering: .releasing)
        }
      }
    }
  }

  @inlinable
  final func makeChain(_ middleware: [Middleware<State>]) -> DispatchFunction? {
    guard !middleware.isEmpty else { return nil }
    let dispatch: DispatchFunction = { [weak self] action in self?.dispatch(action) }
    let getState: () -> State? = { [weak self] in self?.reactorKitStore.currentState }
    return middleware.reversed().reduce(chain.reducerStage) { next, middleware in
      middleware(dispatch, getState)(next)
    }
  }

  // MARK: - Dispatching

  /// Dispatches `action` through ``dispatchFunction``: the middleware, then the reducer.
  ///
  /// Called from outside the store's processing, it returns after the action has been reduced
  /// and every subscriber notified. Called from inside it (a middleware, the reducer, a
  /// subscriber), it queues the action, which runs after the current one. Thread-safe.
  @inlinable
  open func dispatch(_ action: Action) {
    if hasCustomDispatchFunction.load(ordering: .acquiring) {
      dispatchFunction(action)
    } else {
      reactorKitStore.dispatch(action)
    }
  }

  /// Receives the state after an asynchronously created action was reduced.
  public typealias DispatchCallback = (State) -> Void

  /// A function that may create an action from the current state.
  public typealias ActionCreator = (_ state: State, _ store: Store) -> Action?

  /// A function that creates an action creator asynchronously and hands it to its callback.
  public typealias AsyncActionCreator = (
    _ state: State, _ store: Store, _ actionCreatorCallback: @escaping ((ActionCreator) -> Void)
  ) -> Void

  /// Calls `actionCreatorProvider` with the current state and dispatches the action it
  /// returns, if any.
  @available(
    *, deprecated, message: "Deprecated in favor of https://github.com/ReSwift/ReSwift-Thunk"
  )
  open func dispatch(_ actionCreatorProvider: @escaping ActionCreator) {
    if let action = actionCreatorProvider(state, self) {
      dispatch(action)
    }
  }

  /// Calls `asyncActionCreatorProvider`, which later hands back an action creator to dispatch.
  @available(
    *, deprecated, message: "Deprecated in favor of https://github.com/ReSwift/ReSwift-Thunk"
  )
  open func dispatch(_ asyncActionCreatorProvider: @escaping AsyncActionCreator) {
    dispatchAsync(asyncActionCreatorProvider, callback: nil)
  }

  /// Calls `actionCreatorProvider`, which later hands back an action creator; dispatches its
  /// action, then calls `callback` with the state after it.
  @available(
    *, deprecated, message: "Deprecated in favor of https://github.com/ReSwift/ReSwift-Thunk"
  )
  open func dispatch(
    _ actionCreatorProvider: @escaping AsyncActionCreator, callback: DispatchCallback?
  ) {
    dispatchAsync(actionCreatorProvider, callback: callback)
  }

  @usableFromInline
  final func dispatchAsync(
    _ actionCreatorProvider: @escaping AsyncActionCreator, callback: DispatchCallback?
  ) {
    actionCreatorProvider(state, self) { [self] actionCreator in
      guard let action = actionCreator(state, self) else { return }
      dispatch(action)
      callback?(state)
    }
  }

  // MARK: - Subscribing

  /// Subscribes `subscriber` to the whole state: it receives the current state at once, then
  /// every new state. (For an `Equatable` state, the overload that skips repeats is chosen.)
  ///
  /// The store holds `subscriber` weakly; subscribing it again replaces its subscription.
  @inlinable
  open func subscribe<S: StoreSubscriber>(_ subscriber: S)
  where S.StoreSubscriberStateType == State {
    subscribe(subscriber, transform: nil)
  }

  /// Subscribes `subscriber` to what `transform` selects: it receives the current selection at
  /// once, then every new value the subscription lets through.
  ///
  /// The store holds `subscriber` weakly; subscribing it again replaces its subscription.
  /// Subscribers are called on the thread that is processing, in the order they subscribed.
  @inlinable
  open func subscribe<SelectedState, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState {
    let original = Subscription<State>()
    subscribe(subscriber, original: original, selected: transform?(original))
  }

  /// Connects `subscriber` to `selected` (or, without a transform, to `original` when the
  /// subscriber takes the whole state) and adds it to the subscribers the store notifies.
  ///
  /// The subscriber joins inside the native store's turn (through a temporary native
  /// subscription, whose first value arrives there), so it receives the current state, then
  /// every later one from ``fanOut(_:)``, without gaps or duplicates, even while another thread
  /// dispatches.
  @inlinable
  final func subscribe<SelectedState, S: StoreSubscriber>(
    _ subscriber: S, original: Subscription<State>, selected: Subscription<SelectedState>?
  ) where S.StoreSubscriberStateType == SelectedState {
    let output = selected ?? (original as Any as? Subscription<SelectedState>)
    let box = SubscriptionBox(subscriber: subscriber, pipeline: original)
    // The box outlives its pipeline, and while it delivers it holds the subscriber.
    let unretainedBox = UnretainedReference(box)
    let unretainedSubscriber = UnretainedReference(subscriber)
    output?.observer = { _, newState in
      if unretainedBox.withObject({ $0.isDelivering }) {
        unretainedSubscriber.withObject { $0.newState(state: newState) }
      }
    }
    var hasJoined = false
    let join = reactorKitStore.state.subscribe(onNext: { [weak self] state in
      guard !hasJoined, let self else { return }
      hasJoined = true
      let replaced = self.lock.withLock { () -> SubscriptionBox<State>? in
        let replaced = self.subscriptions.updateValue(box, forKey: box.identifier)
        if let replaced { self.removeFromDeliveryListLocked(replaced) }
        box.deliverySlot = self.deliveryList.count
        self.deliveryList.append(box)
        return replaced
      }
      replaced?.deactivate()
      _ = box.receive(state)
    })
    join.dispose()
  }

  /// Delivers a new state to every subscriber, in the order they subscribed, and removes those
  /// that are gone. Called by the native store on the processing thread, serially.
  @inlinable
  final func fanOut(_ state: State) {
    lock.lock()
    let boxes = deliveryList
    lock.unlock()
    var hasGone = false
    for case let box? in boxes where !box.receive(state) {
      hasGone = true
    }
    if hasGone { removeGone() }
  }

  /// Ends the subscription of `subscriber`: it receives no further state.
  open func unsubscribe(_ subscriber: any AnyStoreSubscriber) {
    let box = lock.withLock { () -> SubscriptionBox<State>? in
      guard let box = subscriptions.removeValue(forKey: ObjectIdentifier(subscriber)) else {
        return nil
      }
      removeFromDeliveryListLocked(box)
      return box
    }
    box?.deactivate()
  }

  /// Removes the subscriptions whose subscriber is gone.
  @usableFromInline
  final func removeGone() {
    let gone = lock.withLock { () -> [SubscriptionBox<State>] in
      var gone: [SubscriptionBox<State>] = []
      for case let box? in deliveryList where !box.hasSubscriber {
        gone.append(box)
        if subscriptions[box.identifier] === box { subscriptions[box.identifier] = nil }
      }
      compactDeliveryListLocked(removing: { !$0.hasSubscriber })
      return gone
    }
    for box in gone { box.deactivate() }
  }

  /// Empties the slot of `box` in ``deliveryList`` (constant time), compacting the list once
  /// half of it is vacant (amortised constant time). Call with `lock` held.
  @usableFromInline
  final func removeFromDeliveryListLocked(_ box: SubscriptionBox<State>) {
    let slot = box.deliverySlot
    guard slot < deliveryList.count, deliveryList[slot] === box else { return }
    deliveryList[slot] = nil
    vacantSlots += 1
    if vacantSlots > 16, vacantSlots * 2 > deliveryList.count {
      compactDeliveryListLocked(removing: { _ in false })
    }
  }

  /// Drops the vacant slots of ``deliveryList`` and the boxes `isRemoved` picks, keeping the
  /// order, and renumbers the boxes' slots. Call with `lock` held.
  @usableFromInline
  final func compactDeliveryListLocked(removing isRemoved: (SubscriptionBox<State>) -> Bool) {
    var kept: [SubscriptionBox<State>?] = []
    kept.reserveCapacity(deliveryList.count - vacantSlots)
    for case let box? in deliveryList where !isRemoved(box) {
      box.deliverySlot = kept.count
      kept.append(box)
    }
    deliveryList = kept
    vacantSlots = 0
  }

  /// The number of subscriptions, including those whose subscriber is gone but not yet
  /// removed (removal happens on the next state).
  var subscriptionCount: Int {
    lock.withLock { subscriptions.count }
  }

  /// The number of subscriptions whose subscriber is alive.
  var liveSubscriberCount: Int {
    lock.withLock { subscriptions.values.filter(\.hasSubscriber).count }
  }
}

extension Store where State: Equatable {
  /// Subscribes `subscriber` to the whole state, skipping states equal to the previous one
  /// unless the store was created with `automaticallySkipsRepeats: false`.
  ///
  /// The store holds `subscriber` weakly; subscribing it again replaces its subscription.
  @inlinable
  public func subscribe<S: StoreSubscriber>(_ subscriber: S)
  where S.StoreSubscriberStateType == State {
    let original = Subscription<State>()
    let selected = subscriptionsAutomaticallySkipRepeats ? original.skipRepeats() : nil
    subscribe(subscriber, original: original, selected: selected)
  }
}

extension Store {
  /// Subscribes `subscriber` to what `transform` selects, skipping values equal to the previous
  /// one unless the store was created with `automaticallySkipsRepeats: false`.
  ///
  /// The store holds `subscriber` weakly; subscribing it again replaces its subscription.
  @inlinable
  public func subscribe<SelectedState: Equatable, S: StoreSubscriber>(
    _ subscriber: S, transform: ((Subscription<State>) -> Subscription<SelectedState>)?
  ) where S.StoreSubscriberStateType == SelectedState {
    let original = Subscription<State>()
    var selected = transform?(original)
    if subscriptionsAutomaticallySkipRepeats {
      selected = selected?.skipRepeats()
    }
    subscribe(subscriber, original: original, selected: selected)
  }
}
