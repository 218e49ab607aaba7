/// A container for app-wide state that changes only through dispatched actions (Redux style).
///
/// Each dispatched ``Action`` runs through the ``Middleware`` chain, and every action the
/// chain lets through is applied by the ``Reducer``, producing one new state that is published
/// to subscribers of ``state``, ``slice(_:)`` and ``select(_:isDuplicate:)``.
///
/// ```swift
/// let store = Store(reducer: appReducer, state: AppState(), middleware: [logging])
/// store.slice(\.session.user)
///   .subscribe(onNext: { user in render(user) })
///   .disposed(by: disposeBag)
/// store.dispatch(SessionAction.logIn(user))
/// ```
///
/// ## Threading
///
/// A store is safe to use from any thread. Processing is serial: each action is reduced
/// exactly once, one at a time, in one total order, and subscribers see the states in that
/// order.
///
/// - `dispatch(_:)` is synchronous. Called from outside the store's processing,
///   it returns after its action, and everything processing it dispatched, has been reduced
///   and every subscriber notified. If another thread is processing, it blocks until that
///   work is done (the processing thread may process it for it, or hand it the turn).
/// - Waiting is bounded: a caller whose own work is done processes at most a fixed number of
///   other callers' actions, then hands the turn to the longest-waiting blocked thread (or,
///   when none, task in `send`) and returns.
/// - Called from inside the store's processing (a middleware, the reducer, or a subscriber
///   called by the store), `dispatch` queues the action and returns at once; the action runs
///   from the top of the middleware chain after the current one is finished, including the
///   notification of all subscribers. Queued actions run in FIFO order; nothing recurses or
///   is lost.
/// - Middleware, the reducer and subscribers are called on the thread that is processing,
///   which is the thread of a `dispatch` call (or of a task in `send`) in progress, never
///   with a lock held.
/// - Subscribing runs under the same rules: the subscriber receives the current value, then
///   every later change, without gaps or duplicates.
/// - Subscriptions hold the store weakly (the observables hold it strongly). When the store
///   is freed, every subscription that is still active completes.
///
/// > Important: Don't block the processing thread waiting for another thread that
/// > dispatches to the same store: that thread waits for the processing thread.
///
/// ## State at scale
///
/// A dispatch costs in proportion to what its action changes, not to the size of the state:
///
/// - The reducer changes the stored state in place. With nobody else holding the state, an
///   `inout` change to one element of a 100,000-element array copies nothing.
/// - Whoever keeps a state (``currentState``'s copy, a `getState()` result kept by middleware,
///   a subscriber that stores the states it receives, a history) shares its storage, so the
///   next change copies what it changes once (copy-on-write), and nothing otherwise. Keep
///   large lists in an ``IdentifiedList``, whose versions share all but the changed path, so
///   that holders cost almost nothing.
/// - A ``currentState`` read on another thread while a reduction runs waits for it to end and
///   returns its result: readers never see a state being changed.
///
/// `Store` is `Sendable` whatever its `State`: states and actions are handed between threads
/// under the store's locks. Keep them values (or immutable objects), as Redux expects.
public final class Store<State>: @unchecked Sendable {
  // Safety: the engine synchronises itself; the plugin slot is only accessed atomically.
  /// The store's atomic slot, declared once (see `AtomicSlot`).
  @usableFromInline enum Slots: Int, AtomicSlotIndex { case pluginHost }
  /// The storage of the installed plugins (see `Store+Plugins.swift`): 0 until one is.
  @usableFromInline var pluginHostSlot = AtomicSlot(UInt(0))
  /// The engine: the turn, the dispatch queue, the state and the subscriptions.
  @usableFromInline let core: StoreCore<State>

  /// Creates a store.
  ///
  /// - Parameters:
  ///   - reducer: Applies each action to the state.
  ///   - state: The initial state.
  ///   - middleware: Stages every dispatched action runs through, in order, before it is
  ///     reduced. Each middleware is connected to the store once, here.
  @inlinable
  public init(reducer: Reducer<State>, state: State, middleware: [Middleware<State>] = []) {
    // Inlinable, as is `StoreChain.install`, so that the core and the chain's closures, which
    // run on every dispatch, are specialised for `State` in the caller's module.
    core = StoreCore(reducer: reducer, state: state)
    Resources.incrementTotal()
    if !middleware.isEmpty {
      StoreChain.install(
        middleware, in: core, dispatch: { [weak self] action in self?.dispatch(action) })
    }
  }

  deinit {
    Resources.decrementTotal()
    pluginSlot.releaseUnshared()
  }

  /// The current state: the state after the last reduction.
  ///
  /// Readable from any thread; a copy that shares the state's storage (see "State at scale"
  /// in the type's notes). On another thread while a reduction runs, it is the state after
  /// that reduction: the read waits for it to end, never seeing a state being changed. Inside
  /// the reducer (on the reducing thread) it is the state as the reducer has changed it so
  /// far; the reducer's `inout` argument is the better way to read it.
  @inlinable
  public var currentState: State {
    core.storage.read()
  }

  /// The state: the current state first, then each new state, one per reduction.
  ///
  /// Never fails; completes when the store is freed. See the store's threading contract for
  /// when and where subscribers are called.
  @inlinable
  public var state: Observable<State> {
    Observable { observer in self.core.subscribeState(observer) }
  }

  /// Each action as it reaches the reducer, after the middleware chain, just before it is
  /// reduced.
  ///
  /// Actions a middleware drops never appear; an action a middleware turns into three
  /// appears as three. Never fails; completes when the store is freed.
  @inlinable
  public var actions: Observable<any Action> {
    Observable { observer in self.core.subscribeActions(observer) }
  }

  /// Dispatches `action`: runs it through the middleware chain, reduces what the chain lets
  /// through, and notifies subscribers.
  ///
  /// Synchronous and thread-safe:
  /// - Called from outside the store's processing, it returns after `action`, and everything
  ///   processing it dispatched, has been reduced and every subscriber notified. While
  ///   another thread is processing, it blocks (on a condition variable) until its action
  ///   is done, or until it is handed the turn; it then processes the queued actions, its
  ///   own among them, in order, and hands the turn on after a bounded number of others'.
  /// - Called from inside the store's processing (a middleware, the reducer, a subscriber
  ///   called by the store), it queues `action` and returns at once. The action runs from
  ///   the top of the middleware chain after the current one is finished, including the
  ///   notification of every subscriber, in FIFO order with other queued actions.
  ///
  /// - Parameter action: The action to dispatch.
  /// - Complexity: Per reduction: the reducer, one copy of the state value (a copy-on-write
  ///   container the reducer mutates is copied only while an older state still shares it),
  ///   one call per ``state`` subscriber, one read and comparison per distinct slice or
  ///   selection, and one call per subscriber whose slice changed. Without contention and
  ///   middleware, it allocates nothing.
  @inlinable
  public func dispatch(_ action: any Action) {
    core.submitDispatch(action, tag: 0)
  }

  /// Dispatches each element of `actions` as it arrives (see `dispatch(_:)`).
  ///
  /// The store is held weakly: elements arriving after it is freed are dropped. Errors and
  /// completion end the subscription.
  ///
  /// - Parameter actions: The actions to dispatch.
  /// - Returns: A disposable that stops dispatching.
  @discardableResult
  public func dispatch(_ actions: Observable<any Action>) -> Disposable {
    actions.subscribe(onNext: { [weak self] action in self?.dispatch(action) })
  }

  /// Dispatches each element of a stream of one action type as it arrives (see
  /// `dispatch(_:)`), such as an `Observable<TodoAction>`.
  ///
  /// The store is held weakly: elements arriving after it is freed are dropped. Errors and
  /// completion end the subscription.
  ///
  /// ```swift
  /// store.dispatch(refreshButton.taps.map { TodoAction.refresh })
  ///   .disposed(by: disposeBag)
  /// ```
  ///
  /// - Parameter actions: The actions to dispatch: any observable (or `Driver`, `Signal`)
  ///   whose elements are of a type conforming to ``Action``.
  /// - Returns: A disposable that stops dispatching.
  @discardableResult
  public func dispatch<Actions: ObservableConvertibleType>(_ actions: Actions) -> Disposable
  where Actions.Element: Action {
    actions.asObservable().subscribe(onNext: { [weak self] action in self?.dispatch(action) })
  }

  // MARK: - Package hooks

  /// Dispatches `action` with a `tag` that reduction observers see (see ``StoreReduction``).
  package func dispatch(_ action: any Action, tag: UInt64) {
    core.submitDispatch(action, tag: tag)
  }

  /// Calls `observer` after each reduction with the action and the states before and after,
  /// on the processing thread, before other subscribers are notified.
  package func observeReductions(_ observer: @escaping (StoreReduction<State>) -> Void)
    -> Disposable
  {
    core.observeReductions(observer)
  }
}
