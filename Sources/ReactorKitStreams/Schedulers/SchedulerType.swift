import Dispatch
import Foundation

/// A time interval for schedulers and time operators.
public typealias RxTimeInterval = DispatchTimeInterval

/// A point in time as schedulers report it.
public typealias RxTime = Date

/// Runs units of work, possibly later or elsewhere.
///
/// Schedulers are thread-safe: `schedule` may be called from any thread.
public protocol ImmediateSchedulerType: Sendable {
  /// Schedules `action` to run with `state`.
  ///
  /// - Returns: A disposable that cancels the action if it has not started, and disposes
  ///   what the action returned once it has.
  func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable
}

/// A scheduler that also knows the time and can run work after a delay.
///
/// Every time-based operator takes a `SchedulerType`, so a virtual-time scheduler makes them
/// run deterministically in tests.
public protocol SchedulerType: ImmediateSchedulerType {
  /// The scheduler's current time.
  var now: RxTime { get }

  /// Schedules `action` to run after `dueTime`.
  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval,
    action: @escaping (StateType) -> Disposable
  ) -> Disposable

  /// Runs `action` every `period`, first after `startAfter`, threading the state through.
  func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> Disposable
}

extension ImmediateSchedulerType {
  /// Schedules `action` recursively: the action receives a function that schedules it again
  /// with a new state. Rescheduling stops when the returned disposable is disposed.
  public func scheduleRecursive<State>(
    _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
  ) -> Disposable {
    let recursion = RecursiveScheduling<State>(
      action: { state, recurse in action(state) { recurse($0, nil) } },
      schedule: { state, _, work in self.schedule(state, action: work) })
    recursion.schedule(state, nil)
    return Disposables.create(with: recursion.dispose)
  }
}

extension SchedulerType {
  /// The default periodic scheduling, built from ``SchedulerType/scheduleRelative(_:dueTime:action:)``.
  public func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> Disposable {
    let periodic = PeriodicScheduling(
      scheduler: self, state: state, period: period, action: action)
    return periodic.start(after: startAfter)
  }

  /// Schedules `action` recursively with a delay for each step.
  public func scheduleRecursive<State>(
    _ state: State, dueTime: RxTimeInterval,
    action: @escaping (_ state: State, _ recurse: (State, RxTimeInterval) -> Void) -> Void
  ) -> Disposable {
    let recursion = RecursiveScheduling<State>(
      action: { state, recurse in action(state) { recurse($0, $1) } },
      schedule: { state, due, work in
        self.scheduleRelative(state, dueTime: due ?? .never, action: work)
      })
    recursion.schedule(state, dueTime)
    return Disposables.create(with: recursion.dispose)
  }
}

/// Drives recursive scheduling: each step may schedule the next; disposal stops the chain.
/// Scheduled work holds the driver strongly until it runs or is disposed.
@usableFromInline
final class RecursiveScheduling<State>: @unchecked Sendable {
  // Safety: `action` is guarded by `lock`; `group` synchronises itself.
  typealias Schedule = (State, RxTimeInterval?, @escaping (State) -> Disposable) -> Disposable
  private let lock = Lock(recursive: true)
  private var action: ((State, (State, RxTimeInterval?) -> Void) -> Void)?
  private let scheduleWork: Schedule
  private let group = CompositeDisposable()

  init(
    action: @escaping (State, (State, RxTimeInterval?) -> Void) -> Void,
    schedule: @escaping Schedule
  ) {
    self.action = action
    self.scheduleWork = schedule
  }

  func schedule(_ state: State, _ dueTime: RxTimeInterval?) {
    let single = SingleAssignmentDisposable()
    guard let key = group.insert(single) else { return }
    let disposable = scheduleWork(state, dueTime) { state -> Disposable in
      self.group.remove(for: key)
      let action = self.lock.withLock { self.action }
      action?(state) { next, due in self.schedule(next, due) }
      return Disposables.create()
    }
    single.setDisposable(disposable)
  }

  func dispose() {
    lock.withLock { action = nil }
    group.dispose()
  }
}

private final class PeriodicScheduling<State, Scheduler: SchedulerType>: @unchecked Sendable {
  // Safety: `state` is only touched by the serial chain of scheduled ticks.
  private let scheduler: Scheduler
  private var state: State
  private let period: RxTimeInterval
  private let action: (State) -> State
  private let serial = SerialDisposable()

  init(
    scheduler: Scheduler, state: State, period: RxTimeInterval, action: @escaping (State) -> State
  ) {
    self.scheduler = scheduler
    self.state = state
    self.period = period
    self.action = action
  }

  func start(after delay: RxTimeInterval) -> Disposable {
    scheduleTick(after: delay)
    return serial
  }

  private func scheduleTick(after delay: RxTimeInterval) {
    guard !serial.isDisposed else { return }
    serial.disposable = scheduler.scheduleRelative((), dueTime: delay) { _ in
      guard !self.serial.isDisposed else { return Disposables.create() }
      self.state = self.action(self.state)
      self.scheduleTick(after: self.period)
      return Disposables.create()
    }
  }
}

extension DispatchTimeInterval {
  /// The interval in seconds; `.never` is `.infinity`.
  public var seconds: Double {
    switch self {
    case .seconds(let value): return Double(value)
    case .milliseconds(let value): return Double(value) / 1_000
    case .microseconds(let value): return Double(value) / 1_000_000
    case .nanoseconds(let value): return Double(value) / 1_000_000_000
    case .never: return .infinity
    @unknown default: return .infinity
    }
  }
}
