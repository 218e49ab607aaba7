import Dispatch
import Foundation

/// Shared implementation of scheduling onto a dispatch queue.
struct DispatchQueueScheduling: Sendable {
  let queue: DispatchQueue
  let leeway: DispatchTimeInterval

  /// Runs `action` on the queue unless disposed first; `dequeued` runs when the queue gets to
  /// the work either way.
  func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable,
    dequeued: (@Sendable () -> Void)? = nil
  ) -> Disposable {
    let cancel = SingleAssignmentDisposable()
    let work = UncheckedSendable((state, action))
    queue.async {
      defer { dequeued?() }
      if cancel.isDisposed { return }
      cancel.setDisposable(work.value.1(work.value.0))
    }
    return cancel
  }

  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    if case .never = dueTime { return Disposables.create() }
    let cancel = SingleAssignmentDisposable()
    let timer = DispatchSource.makeTimerSource(queue: queue)
    // The handler holds the timer until it fires or is disposed, so dropping the returned
    // disposable does not stop it; firing cancels the timer, which releases the handler
    // and with it the action.
    let owner = TimerOwner(timer)
    let work = UncheckedSendable((state, action))
    timer.schedule(deadline: .now() + dueTime, leeway: leeway)
    timer.setEventHandler {
      owner.cancel()
      if cancel.isDisposed { return }
      cancel.setDisposable(work.value.1(work.value.0))
    }
    timer.resume()
    return Disposables.create {
      cancel.dispose()
      owner.cancel()
    }
  }

  func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> Disposable {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    // The handler holds the timer until the returned disposable is disposed.
    let owner = TimerOwner(timer)
    let box = UncheckedSendable(LockedBox((state, action)))
    timer.schedule(deadline: .now() + startAfter, repeating: period, leeway: leeway)
    timer.setEventHandler {
      guard owner.isActive else { return }
      let current = box.value.withLock { $0 }
      let next = current.1(current.0)
      box.value.withLock { $0.0 = next }
    }
    timer.resume()
    return Disposables.create { owner.cancel() }
  }
}

/// A scheduler that runs its work through a ``DispatchQueueScheduling``: it gets the
/// ``SchedulerType`` requirements from it, and may still implement any of them itself.
protocol DispatchQueueSchedulerType: SchedulerType {
  var configuration: DispatchQueueScheduling { get }
}

extension DispatchQueueSchedulerType {
  /// The current time.
  public var now: RxTime { Date() }

  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    configuration.schedule(state, action: action)
  }

  public func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    configuration.scheduleRelative(state, dueTime: dueTime, action: action)
  }

  public func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> Disposable {
    configuration.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
  }
}

/// Keeps a dispatch timer alive until ``cancel()``: the timer's handler captures its owner,
/// which holds the timer, so the pair lives until cancelled.
private final class TimerOwner: @unchecked Sendable {
  // Safety: `timer` is guarded by `lock`.
  private let lock = Lock()
  private var timer: DispatchSourceTimer?

  init(_ timer: DispatchSourceTimer) {
    self.timer = timer
  }

  /// Whether the timer has not been cancelled yet.
  var isActive: Bool { lock.withLock { timer != nil } }

  /// Cancels the timer (once) and lets it go; the system then releases its handler.
  func cancel() {
    let timer = lock.withLock {
      let timer = self.timer
      self.timer = nil
      return timer
    }
    timer?.cancel()
  }
}

/// Runs work serially on a dispatch queue (a new one, or one you pass in).
public final class SerialDispatchQueueScheduler: DispatchQueueSchedulerType {
  let configuration: DispatchQueueScheduling

  /// Schedules on a new serial queue labelled `internalSerialQueueName`.
  public init(
    internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
    leeway: DispatchTimeInterval = .nanoseconds(0)
  ) {
    let queue = DispatchQueue(label: internalSerialQueueName)
    serialQueueConfiguration?(queue)
    configuration = DispatchQueueScheduling(queue: queue, leeway: leeway)
  }

  /// Schedules on a new serial queue that targets `serialQueue`.
  public init(
    queue serialQueue: DispatchQueue, internalSerialQueueName: String,
    leeway: DispatchTimeInterval = .nanoseconds(0)
  ) {
    let queue = DispatchQueue(label: internalSerialQueueName, target: serialQueue)
    configuration = DispatchQueueScheduling(queue: queue, leeway: leeway)
  }

  /// Schedules on a new serial queue with the given quality of service.
  public convenience init(
    qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
    leeway: DispatchTimeInterval = .nanoseconds(0)
  ) {
    self.init(
      queue: DispatchQueue.global(qos: qos.qosClass),
      internalSerialQueueName: internalSerialQueueName,
      leeway: leeway)
  }

  init(serialQueue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    configuration = DispatchQueueScheduling(queue: serialQueue, leeway: leeway)
  }
}

/// Runs work on a concurrent dispatch queue; work items may run in parallel.
public final class ConcurrentDispatchQueueScheduler: DispatchQueueSchedulerType {
  let configuration: DispatchQueueScheduling

  /// Schedules on `queue`.
  public init(queue: DispatchQueue, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    configuration = DispatchQueueScheduling(queue: queue, leeway: leeway)
  }

  /// Schedules on the global queue of the given quality of service.
  public convenience init(qos: DispatchQoS, leeway: DispatchTimeInterval = .nanoseconds(0)) {
    self.init(queue: DispatchQueue.global(qos: qos.qosClass), leeway: leeway)
  }
}
