import ReactorKit

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A ReactiveReSwift ``Middleware`` run as the native store's middleware.
///
/// The dispatch function it hands the middleware queues actions dispatched on the processing
/// thread (the native store does so). Actions dispatched from another thread while the
/// middleware runs are held by `gate`, not blocked on: ReactiveReSwift allows a middleware to
/// wait for another thread that dispatches (`DispatchQueue.global().sync`), which would
/// otherwise wait for the processing thread forever. Held actions are queued when the
/// middleware returns, or earlier by the next `dispatch` on the store, so each thread's actions
/// keep their order.
@usableFromInline
enum MiddlewareStage {
  @usableFromInline
  static func make<State>(_ middleware: Middleware<State>, gate: MiddlewareGate)
    -> ReactorKit.Middleware<State>
  {
    let transform = UncheckedSendable(middleware.transform)
    return ReactorKit.Middleware<State> { getState, dispatch, action in
      let dispatchFunction: Middleware<State>.DispatchFunction = { actions in
        if gate.holdIfRunningElsewhere(actions) { return }
        for action in actions { dispatch(action) }
      }
      gate.enter()
      defer { gate.leave { dispatch($0) } }
      return transform.value(getState, dispatchFunction, action)
    }
  }
}

/// Which thread runs a store's middleware, and the actions other threads dispatched through it
/// meanwhile.
@usableFromInline
final class MiddlewareGate: @unchecked Sendable {
  // Safety: `running` and `held` are guarded by `lock`; `hasHeld` is atomic.
  @usableFromInline let lock = Lock()
  /// The thread running the middleware; 0 when none.
  private var running: UInt = 0
  private var held: [any ReactorKit.Action] = []
  /// Whether `held` is not empty: lets `flushHeld` skip the lock.
  @usableFromInline let hasHeld = AtomicBox<Bool>(false)

  @usableFromInline
  init() {}

  /// Records that the calling (processing) thread runs the middleware.
  func enter() {
    let thread = currentThreadID()
    lock.withLock { running = thread }
  }

  /// Holds `actions` when another thread is running the middleware; returns whether it did.
  func holdIfRunningElsewhere(_ actions: [any ReactorKit.Action]) -> Bool {
    let thread = currentThreadID()
    return lock.withLock {
      guard running != 0, running != thread else { return false }
      held.append(contentsOf: actions)
      hasHeld.store(true, ordering: .releasing)
      return true
    }
  }

  /// Records that the middleware returned and queues the held actions with `dispatch` (on the
  /// processing thread, where it only enqueues) before another thread can dispatch directly.
  func leave(_ dispatch: (any ReactorKit.Action) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    running = 0
    for action in takeHeld() { dispatch(action) }
  }

  /// Dispatches the held actions, if any, with `dispatch`: called before a direct dispatch, so
  /// that it does not overtake actions its thread dispatched through the middleware.
  @inlinable
  func flushHeld(_ dispatch: (any ReactorKit.Action) -> Void) {
    guard hasHeld.load(ordering: .acquiring) else { return }
    for action in lock.withLock({ takeHeld() }) { dispatch(action) }
  }

  /// Empties `held` and returns what it held. Call with `lock` held.
  @usableFromInline
  func takeHeld() -> [any ReactorKit.Action] {
    let actions = held
    held = []
    hasHeld.store(false, ordering: .releasing)
    return actions
  }
}

/// An identifier of the calling thread, never 0.
@inline(__always)
private func currentThreadID() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
