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
enum MiddlewareStage {
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
          let call = UncheckedSendable((dispatch, actions))
          DispatchQueue.global().async {
            for action in call.value.1 { call.value.0(action) }
          }
        }
      }
      running.store(thread, ordering: .releasing)
      defer { running.store(0, ordering: .releasing) }
      return transform.value(getState, dispatchFunction, action)
    }
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
