import ReactorKitStreams

/// A store's middleware chain, held by its registry: the first stage and the chain's end.
@usableFromInline
final class StoreChain<State> {
  /// The first stage: runs an action through the whole chain.
  @usableFromInline let first: (any Action) -> Void
  @usableFromInline let end: StoreChainEnd<State>

  @inlinable
  init(_ first: @escaping (any Action) -> Void, end: StoreChainEnd<State>) {
    self.first = first
    self.end = end
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
