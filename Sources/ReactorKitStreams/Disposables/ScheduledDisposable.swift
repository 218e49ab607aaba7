/// Disposes its disposable on a scheduler: ``dispose()`` schedules the disposal and returns.
///
/// Use it for resources that must be released on a particular thread.
public final class ScheduledDisposable: Cancelable, @unchecked Sendable {
  // Safety: `disposed` is atomic; `disposable` is read and cleared only by the scheduled
  // action of the single caller that wins `disposed`.
  private let disposed = AtomicBox<Bool>(false)
  private var disposable: Disposable?

  /// The scheduler the disposal runs on.
  public let scheduler: ImmediateSchedulerType

  /// Creates a disposable that disposes `disposable` on `scheduler`.
  public init(scheduler: ImmediateSchedulerType, disposable: Disposable) {
    self.scheduler = scheduler
    self.disposable = disposable
  }

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Schedules the disposal on ``scheduler``, once.
  public func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    _ = scheduler.schedule(self) { this in
      let disposable = this.disposable
      this.disposable = nil
      disposable?.dispose()
      return Disposables.create()
    }
  }
}
