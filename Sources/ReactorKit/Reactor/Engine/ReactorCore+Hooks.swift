import ReactorKitStreams

// Installed `ReactorHook`s: what the engine calls instead of the reactor's own `mutate` and
// `reduce`.

extension ReactorCore {
  /// The reactor's `mutate` and `reduce` as the core calls them: closures that capture
  /// nothing of the reactor and receive it, loaded by the drain.
  ///
  /// The core loads the reactor from ``OwnedStorage/storageOwner`` once per drain (`nil` once
  /// the reactor is gone) and keeps it alive until the drain ends; ``mutate`` and ``reduce``
  /// receive it, so a drain pays one load however many actions and mutations it runs.
  @usableFromInline
  struct Stages {
    @usableFromInline let mutate: (AnyObject, Action) -> Observable<Mutation>
    @usableFromInline let reduce: (AnyObject, State, Mutation) -> State

    @inlinable
    init(
      mutate: @escaping (AnyObject, Action) -> Observable<Mutation>,
      reduce: @escaping (AnyObject, State, Mutation) -> State
    ) {
      self.mutate = mutate
      self.reduce = reduce
    }
  }

  /// What the core calls on its reactor while ``ReactorHook``s are installed: its
  /// ``ReactorCore/base`` stages wrapped in the hooks.
  ///
  /// A class with constant closures: the drain borrows it (``Config/hooksReference``) and
  /// calls the closures without retaining their contexts. Only the core's owner thread calls
  /// them.
  @usableFromInline typealias Hooks = ConstantBox<Stages>

  /// Installs `hook`; it takes effect when the owner processes the queued `.reconfigure`.
  @usableFromInline
  func addHook(_ hook: ReactorHook<Action, Mutation, State>) -> Disposable {
    lock.lock()
    guard !shared.lifecycle.isDisposed else {
      lock.unlock()
      return Disposables.create()
    }
    let rare = shared.rare
    let id = rare.nextHookID
    rare.nextHookID += 1
    rare.installedHooks.append((id, hook))
    _ = submitAndUnlock(.reconfigure, urgent: true)
    return Disposables.create { [weak self] in self?.removeHook(id) }
  }

  private func removeHook(_ id: UInt64) {
    lock.lock()
    guard !shared.lifecycle.isDisposed,
      let rare = shared.rareStorage,
      let index = rare.installedHooks.firstIndex(where: { $0.id == id })
    else {
      lock.unlock()
      return
    }
    let removed = rare.installedHooks.remove(at: index)
    // Not `submitAndUnlock`: the removed hook (user code) is released before a drain runs.
    let submission = shared.drain.submitLocked(
      .reconfigure, urgent: true, inline: false, lifecycle: shared.lifecycle, gate: gate)
    lock.unlock()
    withExtendedLifetime(removed) {}
    if submission == .queuedAndClaimed { scheduleDrain() }
  }

  /// Rebuilds `config.hooks` from the installed hooks (owner thread).
  @usableFromInline
  func reconfigure() {
    lock.lock()
    let installed = shared.rareStorage?.installedHooks.map(\.hook) ?? []
    lock.unlock()
    config.hooks = installed.isEmpty ? nil : composedHooks(installed)
  }

  /// The reactor's own `mutate` and `reduce` wrapped in `installed`, the first one outermost.
  @usableFromInline
  func composedHooks(_ installed: [ReactorHook<Action, Mutation, State>]) -> Hooks {
    var mutate = base.mutate
    var reduce = base.reduce
    for hook in installed.reversed() {
      if let wrap = hook.mutate {
        let inner = mutate
        mutate = { owner, action in wrap(action) { action in inner(owner, action) } }
      }
      if let wrap = hook.reduce {
        let inner = reduce
        reduce = { owner, state, mutation in
          wrap(state, mutation) { state, mutation in inner(owner, state, mutation) }
        }
      }
    }
    return Hooks(Stages(mutate: mutate, reduce: reduce))
  }
}
