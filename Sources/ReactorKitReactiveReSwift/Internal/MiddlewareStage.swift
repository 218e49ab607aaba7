import Dispatch
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
/// thread (the native store does so), and hands actions dispatched from another thread while
/// the middleware runs to a background thread instead of blocking: ReactiveReSwift allows a
/// middleware to wait for another thread that dispatches (`DispatchQueue.global().sync`), which
/// would otherwise wait for the processing thread forever.
@usableFromInline
enum MiddlewareStage {
  @usableFromInline
  static func make<State>(_ middleware: Middleware<State>) -> ReactorKit.Middleware<State> {
    let transform = UncheckedSendable(middleware.transform)
    let running = AtomicBox<UInt>(0)
    return ReactorKit.Middleware<State> { getState, dispatch, action in
      let thread = currentThreadID()
      let dispatchFunction: Middleware<State>.DispatchFunction = { actions in
        let runningThread = running.load(ordering: .acquiring)
        if runningThread == 0 || runningThread == currentThreadID() {
          for action in actions { dispatch(action) }
        } else {
          let handOff = HandOff(dispatch: dispatch, actions: actions)
          DispatchQueue.global().async { handOff.run() }
        }
      }
      running.store(thread, ordering: .releasing)
      defer { running.store(0, ordering: .releasing) }
      return transform.value(getState, dispatchFunction, action)
    }
  }
}

/// Actions to dispatch on another thread.
private final class HandOff: @unchecked Sendable {
  // Safety: created by one thread, then used only by the thread it is handed to.
  private let dispatch: (any ReactorKit.Action) -> Void
  private let actions: [any ReactorKit.Action]

  init(dispatch: @escaping (any ReactorKit.Action) -> Void, actions: [any ReactorKit.Action]) {
    self.dispatch = dispatch
    self.actions = actions
  }

  func run() {
    for action in actions { dispatch(action) }
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
