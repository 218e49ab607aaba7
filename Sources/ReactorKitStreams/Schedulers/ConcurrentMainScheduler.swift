import Dispatch

/// Runs work on the main thread: at once when called on the main thread, otherwise
/// enqueued on the main queue.
///
/// Unlike ``MainScheduler/instance`` it never waits for work already queued on the main
/// queue. ``ControlEvent`` and ``ControlProperty`` subscribe on it, as in RxCocoa.
public final class ConcurrentMainScheduler: ImmediateSchedulerType {
  /// The shared instance.
  public static let instance = ConcurrentMainScheduler()

  private init() {}

  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    if MainScheduler.isMainThread { return action(state) }
    let cancel = SingleAssignmentDisposable()
    let work = UncheckedSendable((state, action))
    DispatchQueue.main.async {
      // Safety: the work is handed over once, to this block.
      if cancel.isDisposed { return }
      cancel.setDisposable(work.value.1(work.value.0))
    }
    return cancel
  }
}
