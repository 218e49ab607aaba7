import ReactorKit

/// The ReSwift middleware of a ``Store``, run as the single middleware of the native store, so
/// that it runs serially on the processing thread and can be replaced at any time.
final class MiddlewareChain<State>: @unchecked Sendable {
  // Safety: `next` is set once, while the native store is created, before any action; the
  // other fields are guarded by `lock`.
  private let lock = Lock()
  /// The native store's reducer stage, the end of every chain.
  private var next: DispatchFunction?
  /// The composed chain; `nil` while there is no middleware.
  private var current: DispatchFunction?
  /// The middleware `current` was built from.
  private var middleware: [Middleware<State>] = []
  /// Counts replacements, so that a chain built from an older array is never installed.
  private var generation = 0

  /// The native middleware that hands every action to the current chain.
  var stage: ReactorKit.Middleware<State> {
    .redux { [self] _, _ in
      { next in
        self.next = next
        return { action in self.run(action) }
      }
    }
  }

  /// The native reducer stage: the end of the chain.
  var reducerStage: DispatchFunction {
    guard let next else { preconditionFailure("the native store connects its middleware first") }
    return next
  }

  @inline(__always)
  private func run(_ action: Action) {
    let chain = lock.withLock { current }
    if let chain { chain(action) } else { next?(action) }
  }

  /// The current middleware array.
  var currentMiddleware: [Middleware<State>] {
    lock.withLock { middleware }
  }

  /// Records `newMiddleware` as current and returns its generation, for ``install(_:for:)``.
  func replace(with newMiddleware: [Middleware<State>]) -> Int {
    lock.withLock {
      middleware = newMiddleware
      generation += 1
      return generation
    }
  }

  /// Installs `chain`, built from the middleware of `generation`, unless a newer array was set
  /// meanwhile. Returns whether it was installed.
  func install(_ chain: DispatchFunction?, for generation: Int) -> Bool {
    lock.withLock {
      guard generation == self.generation else { return false }
      current = chain
      return true
    }
  }
}
