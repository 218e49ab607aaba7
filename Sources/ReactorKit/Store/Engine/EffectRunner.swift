import ReactorKitStreams

/// The running effects of one store's effects middleware (``Middleware/effects(_:)``): starts
/// effects, dispatches what they emit, cancels them by id, and disposes them all when the
/// store is freed.
///
/// One runner is made per store, when the middleware is connected; the store's middleware
/// chain owns it (its closures, and the chain's ``StoreEffects``, which the test store asks
/// for the running effects), so it lives exactly as long as the store's engine. Effect
/// subscriptions hold the runner weakly, so a running effect never keeps it (or the store)
/// alive.
///
/// ``start(_:)`` and cancellation run on the store's processing thread, one action at a time;
/// effects complete, fail and emit on any thread.
final class EffectRunner: @unchecked Sendable {
  // Safety: `running`, `byID`, `nextToken` and `isClosed` are only touched with `lock` held.
  // `dispatch` is the store's `dispatch`, which is thread-safe and holds the store weakly.
  // Disposables are disposed, and actions dispatched, with the lock released.

  /// A running effect: its subscription and the ids it may be cancelled by.
  private final class Running: @unchecked Sendable {
    // Safety: both properties are immutable; the disposable synchronises itself.
    let ids: [EffectID]
    let subscription = SingleAssignmentDisposable()

    init(ids: [EffectID]) { self.ids = ids }
  }

  private let lock = Lock()
  private let dispatch: (any Action) -> Void
  private var running: [UInt64: Running] = [:]
  private var byID: [EffectID: Set<UInt64>] = [:]
  private var nextToken: UInt64 = 0
  private var isClosed = false

  init(dispatch: @escaping (any Action) -> Void) {
    self.dispatch = dispatch
  }

  deinit {
    // The store is being freed: nothing may be dispatched any more.
    disposeAll(closing: true)
  }

  /// Starts `operation`: cancellations first, in order, then subscriptions.
  func start(_ operation: Effect.Operation) {
    start(operation, ids: [])
  }

  private func start(_ operation: Effect.Operation, ids: [EffectID]) {
    switch operation {
    case .none:
      return
    case .actions(let actions):
      subscribe(actions, ids: ids)
    case .cancel(let id):
      cancel(id)
    case .cancellable(let inner, let id, let cancelInFlight):
      if cancelInFlight { cancel(id) }
      start(inner, ids: ids + [id])
    case .merge(let operations):
      for operation in operations { start(operation, ids: ids) }
    }
  }

  /// The ids of each running effect, oldest first (`[]` for an effect without one).
  var runningIDs: [[AnyHashable]] {
    let effects = lock.withLock { running.sorted { $0.key < $1.key }.map(\.value) }
    return effects.map { $0.ids.map(\.value) }
  }

  /// Disposes every running effect; effects started later run as usual.
  func cancelAll() {
    disposeAll(closing: false)
  }

  /// Forgets and disposes every running effect; `closing` also refuses every later one.
  private func disposeAll(closing: Bool) {
    let all = lock.withLock {
      if closing { isClosed = true }
      let all = Array(running.values)
      running = [:]
      byID = [:]
      return all
    }
    for effect in all { effect.subscription.dispose() }
  }

  /// Disposes every running effect cancellable by `id`.
  private func cancel(_ id: EffectID) {
    let cancelled: [Running] = lock.withLock {
      guard let tokens = byID.removeValue(forKey: id) else { return [] }
      var cancelled: [Running] = []
      for token in tokens {
        guard let effect = running.removeValue(forKey: token) else { continue }
        unindexLocked(effect, token: token, except: id)
        cancelled.append(effect)
      }
      return cancelled
    }
    for effect in cancelled { effect.subscription.dispose() }
  }

  private func subscribe(_ actions: Observable<any Action>, ids: [EffectID]) {
    let effect = Running(ids: ids)
    let token: UInt64? = lock.withLock {
      guard !isClosed else { return nil }
      nextToken &+= 1
      running[nextToken] = effect
      for id in ids { byID[id, default: []].insert(nextToken) }
      return nextToken
    }
    guard let token else { return }
    let subscription = actions.subscribe(
      onNext: { [weak self] action in
        // A cancelled effect whose last event was under way stops here.
        guard let self, !effect.subscription.isDisposed else { return }
        self.dispatch(action)
      },
      onError: { [weak self] error in
        // Unhandled, as an error reaching `subscribe(onNext:)` without `onError` is.
        Hooks.defaultErrorHandler([], error)
        self?.finish(token)
      },
      onCompleted: { [weak self] in self?.finish(token) })
    effect.subscription.setDisposable(subscription)
  }

  /// Forgets an effect that completed or failed, and disposes its subscription (which
  /// releases the observer, and with it the cycle through `Running`).
  private func finish(_ token: UInt64) {
    let effect: Running? = lock.withLock {
      guard let effect = running.removeValue(forKey: token) else { return nil }
      unindexLocked(effect, token: token, except: nil)
      return effect
    }
    effect?.subscription.dispose()
  }

  /// Removes `token` from the index of each of the effect's ids but `skipped`.
  private func unindexLocked(_ effect: Running, token: UInt64, except skipped: EffectID?) {
    for id in effect.ids where id != skipped {
      byID[id]?.remove(token)
      if byID[id]?.isEmpty == true { byID[id] = nil }
    }
  }
}
