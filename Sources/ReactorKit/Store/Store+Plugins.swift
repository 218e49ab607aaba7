extension Store {
  /// Creates a store with plugins (logging, persistence, recording, an undo history, an
  /// inspector), each installed in one step.
  ///
  /// ```swift
  /// let store = Store(
  ///   reducer: AppState.reducer, state: restored.state,
  ///   plugins: [history.scoped(to: \.todos), logger.forStore(), persistence])
  /// ```
  ///
  /// Each plugin's ``StorePlugin/install(in:)`` runs first, in order; then the store is
  /// created with the reducer wrapped by the plugins (each later wrapper outside the earlier
  /// ones) and its `middleware` followed by the plugins' middleware; then the plugins' start
  /// handlers run. When the store is freed, the plugins' close handlers run (a persistence
  /// writes its pending state, a logger flushes its sink).
  ///
  /// A store without plugins, and a store whose plugins add no reducer wrapper or middleware,
  /// costs nothing more per action than one created with ``init(reducer:state:middleware:)``.
  ///
  /// - Parameters:
  ///   - reducer: Applies each action to the state.
  ///   - state: The initial state (for example one a ``StatePersistence`` restored).
  ///   - middleware: Stages every dispatched action runs through before the plugins'.
  ///   - plugins: The plugins to install, in order. An optional plugin that is `nil`
  ///     installs nothing.
  ///
  /// Inlinable so that the store's engine (its middleware chain's end in particular) is
  /// specialised for `State` in the caller's module, as with the plain initialiser.
  @inlinable
  public convenience init(
    reducer: Reducer<State>, state: State, middleware: [Middleware<State>] = [],
    plugins: [any StorePlugin<State>]
  ) {
    var setup = StorePluginSetup<State>()
    for plugin in plugins { plugin.install(in: &setup) }
    var wrapped = reducer
    for wrap in setup.reducerWrappers { wrapped = wrap(wrapped) }
    self.init(reducer: wrapped, state: state, middleware: middleware + setup.middleware)
    if setup.hasHandlers {
      _ = pluginHost.start(setup, context: StorePluginContext(store: self))
    }
  }

  /// Installs `plugin` in this running store: runs its start handler now, and its flush and
  /// close handlers with the store's other plugins.
  ///
  /// Use it for a plugin that only watches the store, to start it later than the store (an
  /// ``ActionRecorder`` started by a "Record" button). A plugin that wraps the reducer or adds
  /// middleware can only be installed when the store is created (``init(reducer:state:middleware:plugins:)``).
  ///
  /// - Parameter plugin: The plugin to install.
  /// - Returns: A disposable that removes the plugin: its subscriptions end and its close
  ///   handlers run.
  /// - Precondition: `plugin` adds no reducer wrapper and no middleware.
  @discardableResult
  public func install(_ plugin: some StorePlugin<State>) -> Disposable {
    var setup = StorePluginSetup<State>()
    plugin.install(in: &setup)
    precondition(
      !setup.changesProcessing,
      "Store.install(_:): \(type(of: plugin)) wraps the reducer or adds middleware, which a "
        + "running store can't take: pass it to Store(reducer:state:middleware:plugins:) "
        + "when the store is created.")
    guard setup.hasHandlers else { return Disposables.create() }
    return pluginHost.start(setup, context: StorePluginContext(store: self))
  }

  /// Flushes every installed plugin, in order: each writes what it has pending now (a
  /// persistence its latest state, a logger and a recorder their files).
  ///
  /// Call it before the app exits; a plugin is also flushed when the store is freed.
  ///
  /// - Throws: The first error a plugin's flush threw, after every plugin was flushed.
  public func flushPlugins() throws {
    try pluginSlot.object?.flush()
  }

  /// The plugins installed in this store, made on first use.
  @usableFromInline
  var pluginHost: StorePluginHost {
    pluginSlot.getOrMake { StorePluginHost() }
  }

  /// The reference kept in the store's ``pluginHostSlot``.
  var pluginSlot: OnceReference<StorePluginHost> {
    OnceReference(Slots.pluginHost, of: self)
  }
}

extension StorePluginSetup {
  /// Whether the setup has anything to run once the store exists.
  @usableFromInline
  var hasHandlers: Bool {
    !startHandlers.isEmpty || !flushHandlers.isEmpty || !closeHandlers.isEmpty
  }
}

/// The plugins installed in one store: what their start handlers returned, and their flush and
/// close handlers. The store holds it and releases it when it is freed, which closes every
/// plugin still installed.
@usableFromInline
final class StorePluginHost: @unchecked Sendable {
  // Safety: `installed` and `nextID` are guarded by `lock`; handlers run without it.
  private struct Installed {
    var id: UInt64
    var subscriptions: [Disposable]
    var flush: [() throws -> Void]
    var close: [() -> Void]
  }

  private let lock = Lock()
  private var installed: [Installed] = []
  private var nextID: UInt64 = 0

  /// Starts the plugin `setup` describes; returns a disposable that removes it.
  @usableFromInline
  func start<State>(_ setup: StorePluginSetup<State>, context: StorePluginContext<State>)
    -> Disposable
  {
    let subscriptions = setup.startHandlers.map { start in start(context) }
    let id = lock.withLock { () -> UInt64 in
      nextID += 1
      installed.append(
        Installed(
          id: nextID, subscriptions: subscriptions, flush: setup.flushHandlers,
          close: setup.closeHandlers))
      return nextID
    }
    return Disposables.create { [weak self] in self?.remove(id) }
  }

  private func remove(_ id: UInt64) {
    let removed = lock.withLock { () -> Installed? in
      guard let index = installed.firstIndex(where: { $0.id == id }) else { return nil }
      return installed.remove(at: index)
    }
    if let removed { Self.close(removed) }
  }

  func flush() throws {
    let handlers = lock.withLock { installed.flatMap(\.flush) }
    var firstError: (any Error)?
    for flush in handlers {
      do {
        try flush()
      } catch {
        if firstError == nil { firstError = error }
      }
    }
    if let firstError { throw firstError }
  }

  private static func close(_ plugin: Installed) {
    for subscription in plugin.subscriptions { subscription.dispose() }
    for close in plugin.close { close() }
  }

  deinit {
    // The store is being freed: nothing else can reach this host.
    for plugin in installed { Self.close(plugin) }
  }
}
