import ReactorKitStreams

/// A store's middleware chain, held by its registry: the first stage and the chain's end.
@usableFromInline
final class StoreChain<State> {
  /// The first stage: runs an action through the whole chain.
  @usableFromInline let first: (any Action) -> Void
  @usableFromInline let end: StoreChainEnd<State>
  /// The runners of the chain's effects stages (for the test store; off the dispatch path).
  @usableFromInline let effects: StoreEffects

  @inlinable
  init(
    _ first: @escaping (any Action) -> Void, end: StoreChainEnd<State>, effects: StoreEffects
  ) {
    self.first = first
    self.end = end
    self.effects = effects
  }

  /// Runs `action` through the chain on the turn holder's thread, marking that thread as the
  /// chain's, so that the final `next` reduces at once.
  @inlinable
  func run(_ action: any Action) {
    end.thread.store(currentThreadIdentity(), ordering: .relaxed)
    first(action)
    end.thread.store(0, ordering: .relaxed)
  }
}

extension StoreChain {
  /// Connects each of `middleware` to `core`, in order, and installs the chain in its
  /// registry: the first stage runs an action through every middleware, and the last `next`
  /// reduces it (``StoreChainEnd/reduce(_:)``). Called once, by `Store.init`, before the store
  /// is shared.
  ///
  /// - Parameters:
  ///   - middleware: The stages, outermost first; not empty.
  ///   - core: The engine of the store being created.
  ///   - dispatch: The middleware's `dispatch`: the store's public entry point, which starts an
  ///     action again at the top of the chain (it holds the store weakly).
  @inlinable
  static func install(
    _ middleware: [Middleware<State>], in core: StoreCore<State>,
    dispatch: @escaping Middleware<State>.Dispatch
  ) {
    let end = StoreChainEnd(core: core)
    let getState: Middleware<State>.GetState = { end.read() }
    let effects = StoreEffects()
    var next: Middleware<State>.Dispatch = { action in end.reduce(action) }
    for stage in middleware.reversed() {
      next = stage.connect(getState, dispatch, effects)(next)
    }
    core.registry.chain = StoreChain(next, end: end, effects: effects)
  }
}
