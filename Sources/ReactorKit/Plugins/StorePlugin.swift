/// A tool that plugs into a ``Store``: logging, persistence, recording, undo history, an
/// inspector, or your own.
///
/// A plugin contributes everything it needs in one step, in ``install(in:)``: it may wrap the
/// store's reducer, add middleware, start subscriptions once the store exists, and say what to
/// do when the store's plugins are flushed and when the store is freed. The store installs
/// its plugins when it is created:
///
/// ```swift
/// let store = Store(
///   reducer: AppState.reducer, state: restored.state,
///   plugins: [history.scoped(to: \.todos), logger.forStore(), persistence])
/// ```
///
/// A plugin installed this way cannot be half-wired: the parts that used to be separate
/// calls (a wrapped reducer, a middleware, an `attach(to:)` afterwards) are made together.
///
/// A plugin of one part of the state works on a store of a larger state through
/// ``scoped(to:)``: `history.scoped(to: \.todos)` keeps an undo history of the todos only.
///
/// ## Writing a plugin
///
/// ```swift
/// struct ActionCounter<State>: StorePlugin {
///   let counter: Counter
///   func install(in setup: inout StorePluginSetup<State>) {
///     setup.addMiddleware(Middleware<State>().sideEffect { _, _, _ in counter.increment() })
///   }
/// }
/// ```
///
/// Keep per-action work cheap: middleware and reducer wrappers run on every dispatch. A store
/// without plugins pays nothing for them.
public protocol StorePlugin<State> {
  /// The state of the stores the plugin works on.
  associatedtype State

  /// Adds what the plugin needs to the store being created, through `setup`.
  ///
  /// Called once per store, before the store exists (so the reducer and middleware can still
  /// be changed), on the thread that creates it.
  func install(in setup: inout StorePluginSetup<State>)
}

/// What a ``StorePlugin`` contributes to a store: reducer wrappers, middleware, work to start
/// once the store exists, and what to do on a flush and when the store is freed.
///
/// The store applies the contributions of its plugins in the order the plugins are listed:
/// - reducer wrappers nest, each later wrapper outside the earlier ones (the store's own
///   reducer is innermost);
/// - middleware runs after the store's own `middleware` array, in plugin order, so the last
///   plugin's middleware sees exactly the actions that reach the reducer;
/// - start handlers run after the store is created, flush and close handlers in plugin order.
public struct StorePluginSetup<State> {
  @usableFromInline var reducerWrappers: [(Reducer<State>) -> Reducer<State>] = []
  @usableFromInline var middleware: [Middleware<State>] = []
  var startHandlers: [(StorePluginContext<State>) -> Disposable] = []
  var flushHandlers: [() throws -> Void] = []
  var closeHandlers: [() -> Void] = []

  @usableFromInline
  init() {}

  /// Wraps the store's reducer, for example to record states or to restore an earlier one.
  ///
  /// - Parameter wrap: Receives the reducer built so far (the store's, wrapped by earlier
  ///   plugins) and returns the reducer to use instead. It runs once, while the store is
  ///   created; the reducer it returns runs for every action.
  public mutating func wrapReducer(_ wrap: @escaping (Reducer<State>) -> Reducer<State>) {
    reducerWrappers.append(wrap)
  }

  /// Adds `middleware` to the store's chain, after the store's own middleware and that of
  /// earlier plugins.
  public mutating func addMiddleware(_ middleware: Middleware<State>) {
    self.middleware.append(middleware)
  }

  /// Runs `start` once the store exists, to subscribe to it or keep a way to dispatch to it.
  ///
  /// - Parameter start: Receives the store's ``StorePluginContext`` and returns what to
  ///   dispose of when the plugin is removed (see ``Store/install(_:)``) or the store is
  ///   freed. Subscriptions to the store's streams complete on their own when the store is
  ///   freed; they don't keep it alive.
  public mutating func onStart(_ start: @escaping (StorePluginContext<State>) -> Disposable) {
    startHandlers.append(start)
  }

  /// Runs `flush` when the store's plugins are flushed (``Store/flushPlugins()``): write what
  /// is pending now (a file, a sink).
  public mutating func onFlush(_ flush: @escaping () throws -> Void) {
    flushHandlers.append(flush)
  }

  /// Runs `close` when the store is freed (or the plugin removed), after its subscriptions
  /// ended: write what is pending, report failures the plugin's own way.
  public mutating func onClose(_ close: @escaping () -> Void) {
    closeHandlers.append(close)
  }

  /// Whether this setup changes what the store does with each action (a reducer wrapper or a
  /// middleware), which only a store being created can take.
  var changesProcessing: Bool {
    !reducerWrappers.isEmpty || !middleware.isEmpty
  }
}

/// What a plugin's start handler sees of the store it is installed in
/// (``StorePluginSetup/onStart(_:)``): its state, its actions and a way to dispatch.
///
/// It holds the store weakly: keeping it does not keep the store alive, and once the store is
/// freed ``dispatch(_:)`` does nothing and the streams complete at once.
public struct StorePluginContext<State> {
  let readState: () -> State?
  let stateStream: () -> Observable<State>
  let actionStream: () -> Observable<any Action>
  let send: (any Action) -> Void

  /// The store's current state, or `nil` once the store is freed.
  public var currentState: State? { readState() }

  /// The store's state: the current state first, then each new one (``Store/state``).
  public var state: Observable<State> { stateStream() }

  /// Each action as it reaches the reducer (``Store/actions``).
  public var actions: Observable<any Action> { actionStream() }

  /// Dispatches `action` to the store (`Store.dispatch(_:)`), or does nothing
  /// once the store is freed.
  public func dispatch(_ action: any Action) { send(action) }

  /// The context of `store`, held weakly.
  @usableFromInline
  init(store: Store<State>) {
    readState = { [weak store] in store?.currentState }
    stateStream = { [weak store] in store?.state ?? .empty() }
    actionStream = { [weak store] in store?.actions ?? .empty() }
    send = { [weak store] action in store?.dispatch(action) }
  }

  init(
    readState: @escaping () -> State?, stateStream: @escaping () -> Observable<State>,
    actionStream: @escaping () -> Observable<any Action>, send: @escaping (any Action) -> Void
  ) {
    self.readState = readState
    self.stateStream = stateStream
    self.actionStream = actionStream
    self.send = send
  }

  /// The context of the part of this store's state at `path`.
  func scoped<Part>(to path: WritableKeyPath<State, Part>) -> StorePluginContext<Part> {
    let readState = self.readState
    let stateStream = self.stateStream
    return StorePluginContext<Part>(
      readState: { readState()?[keyPath: path] },
      stateStream: { stateStream().map { $0[keyPath: path] } },
      actionStream: actionStream, send: send)
  }
}

// MARK: - Optional plugins

/// An optional plugin installs its plugin when there is one, and nothing otherwise, so a
/// plugin that exists only in some builds fits in the list:
/// `plugins: [logger.forStore(), inspector?.forStore()]`.
extension Optional: StorePlugin where Wrapped: StorePlugin {
  public typealias State = Wrapped.State

  public func install(in setup: inout StorePluginSetup<Wrapped.State>) {
    self?.install(in: &setup)
  }
}

// MARK: - Scoping

extension StorePlugin {
  /// This plugin, working on the part of a larger state at `path`.
  ///
  /// ```swift
  /// let history = StateHistory<TodosState>(name: "todos")
  /// let store = Store(
  ///   reducer: AppState.reducer, state: AppState(),
  ///   plugins: [history.scoped(to: \.todos)])   // undo covers the todos only
  /// ```
  ///
  /// The plugin sees the part as its state: its reducer wrapper wraps the part of each
  /// reduction (the store's reducer runs inside it on the whole state), its middleware reads
  /// the part, and its start handler's context publishes the part. Actions are the store's.
  ///
  /// - Parameter path: Where the plugin's state is in the store's.
  /// - Returns: A plugin for stores of `Root`.
  public func scoped<Root>(to path: WritableKeyPath<Root, State>) -> ScopedStorePlugin<Root, Self> {
    ScopedStorePlugin(base: self, path: path)
  }
}

/// A plugin of one part of a store's state, working on a store of the whole state
/// (``StorePlugin/scoped(to:)``).
public struct ScopedStorePlugin<Root, Base: StorePlugin>: StorePlugin {
  public typealias State = Root
  let base: Base
  let path: WritableKeyPath<Root, Base.State>

  public func install(in setup: inout StorePluginSetup<Root>) {
    var part = StorePluginSetup<Base.State>()
    base.install(in: &part)
    let path = self.path
    for wrap in part.reducerWrappers {
      setup.wrapReducer { reducer in Self.lift(wrap, of: reducer, at: path) }
    }
    // Safety: a key path is an immutable value.
    let sendablePath = UncheckedSendable(path)
    for middleware in part.middleware {
      setup.addMiddleware(
        Middleware(connect: { getState, dispatch, effects in
          middleware.connect({ getState()[keyPath: sendablePath.value] }, dispatch, effects)
        }))
    }
    for start in part.startHandlers {
      setup.onStart { context in start(context.scoped(to: path)) }
    }
    for flush in part.flushHandlers { setup.onFlush(flush) }
    for close in part.closeHandlers { setup.onClose(close) }
  }

  /// A reducer of the whole state whose part at `path` goes through `wrap`: the wrapped part
  /// reducer runs the whole reducer (on the whole state being reduced) when the wrapper calls
  /// it, and whatever part the wrapper ends with is written back.
  static func lift(
    _ wrap: (Reducer<Base.State>) -> Reducer<Base.State>, of reducer: Reducer<Root>,
    at path: WritableKeyPath<Root, Base.State>
  ) -> Reducer<Root> {
    // The whole state being reduced. Reductions of one store are serial, and the part reducer
    // runs only inside the whole one below, so one slot per wrapped reducer is enough.
    let reducing = ReducingRoot<Root>()
    func reduceWhole(_ root: inout Root, part: inout Base.State, _ action: any Action) {
      root[keyPath: path] = part
      reducer.reduce(&root, action)
      part = root[keyPath: path]
    }
    let part = wrap(
      Reducer<Base.State>(
        unchecked: { part, action in
          // One in-place access for the whole reduction (reading the part back through the
          // cell's getter would copy the whole state).
          reduceWhole(&reducing.state.value!, part: &part, action)
        }, ()))
    return Reducer<Root>(
      unchecked: { root, action in
        let outer = reducing.state.value
        reducing.state.value = root
        var current = root[keyPath: path]
        part.reduce(&current, action)
        root = reducing.state.value!
        root[keyPath: path] = current
        reducing.state.value = outer
      }, ())
  }
}

/// The whole state a scoped plugin's reducer is reducing (see ``ScopedStorePlugin``).
final class ReducingRoot<Root>: @unchecked Sendable {
  // Safety: used only by the reducer of one store, whose reductions are serial; accesses
  // never overlap, so they skip the dynamic exclusivity check (it runs on every action).
  let state = ExclusiveCell<Root?>(nil)
}
