import ReactorKit

/// The ReSwift middleware of a ``Store``, run as the single middleware of the native store, so
/// that it runs serially on the processing thread and can be replaced at any time.
@usableFromInline
final class MiddlewareChain<State>: @unchecked Sendable {
  // Safety: `next` is set once, while the native store is created, before any action (and
  // `run` gets it from the stage's closure, not from this field); the other fields are guarded
  // by `lock`, and `hasChain` (atomic) tells `run` whether to take it.
  @usableFromInline let lock = Lock()
  /// The native store's reducer stage, the end of every chain.
  @usableFromInline var next: DispatchFunction = { _ in }
  /// The composed chain; `nil` while there is no middleware.
  @usableFromInline var current: DispatchFunction?
  /// Whether `current` is set: without middleware an action goes straight to `next`, no lock.
  @usableFromInline let hasChain = AtomicBox<Bool>(false)
  /// The middleware `current` was built from.
  @usableFromInline var middleware: [Middleware<State>] = []
  /// Counts replacements, so that a chain built from an older array is never installed.
  @usableFromInline var generation = 0

  @inlinable
  init() {}

  /// The native middleware that hands every action to the current chain.
  @inlinable
  var stage: ReactorKit.Middleware<State> {
    .redux { [self] _, _ in
      { next in
        self.next = next
        return { action in self.run(action, next: next) }
      }
    }
  }

  /// The native reducer stage: the end of the chain.
  @inlinable
  var reducerStage: DispatchFunction {
    next
  }

  /// Runs `action` through the current chain, or straight into `next` (the reducer stage)
  /// without middleware.
  @inlinable
  func run(_ action: Action, next: DispatchFunction) {
    guard hasChain.load(ordering: .acquiring) else {
      next(action)
      return
    }
    lock.lock()
    let chain = current
    lock.unlock()
    if let chain { chain(action) } else { next(action) }
  }

  /// The current middleware array.
  @inlinable
  var currentMiddleware: [Middleware<State>] {
    lock.withLock { middleware }
  }

  /// Records `newMiddleware` as current and returns its generation, for ``install(_:for:)``.
  @inlinable
  func replace(with newMiddleware: [Middleware<State>]) -> Int {
    lock.withLock {
      middleware = newMiddleware
      generation += 1
      return generation
    }
  }

  /// Installs `chain`, built from the middleware of `generation`, unless a newer array was set
  /// meanwhile. Returns whether it was installed.
  @inlinable
  func install(_ chain: DispatchFunction?, for generation: Int) -> Bool {
    lock.withLock {
      guard generation == self.generation else { return false }
      current = chain
      hasChain.store(chain != nil, ordering: .releasing)
      return true
    }
  }
}
