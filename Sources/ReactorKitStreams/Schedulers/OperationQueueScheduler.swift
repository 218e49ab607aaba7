import Foundation

/// Runs work as operations on an `OperationQueue` (RxSwift's `OperationQueueScheduler`).
///
/// Each scheduled action becomes one `BlockOperation` with ``queuePriority``; the queue's
/// `maxConcurrentOperationCount` decides whether actions run one at a time. Disposing what
/// `schedule` returned before the operation starts skips the action; afterwards it disposes
/// what the action returned.
public final class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
  // Safety: both properties are immutable; `OperationQueue` is thread-safe.

  /// The queue that runs the work.
  public let operationQueue: OperationQueue
  /// The priority of every operation this scheduler adds.
  public let queuePriority: Operation.QueuePriority

  /// Creates a scheduler that adds its work to `operationQueue` with `queuePriority`.
  public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
    self.operationQueue = operationQueue
    self.queuePriority = queuePriority
  }

  /// Adds an operation that runs `action` with `state`.
  ///
  /// - Returns: A disposable that skips the action if it has not started, and disposes what
  ///   the action returned once it has.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    let cancel = SingleAssignmentDisposable()
    let work = UncheckedSendable((state, action))
    let operation = BlockOperation {
      if cancel.isDisposed { return }
      cancel.setDisposable(work.value.1(work.value.0))
    }
    operation.queuePriority = queuePriority
    operationQueue.addOperation(operation)
    return cancel
  }
}
