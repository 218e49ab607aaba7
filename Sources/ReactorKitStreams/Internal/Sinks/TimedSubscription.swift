/// The per-subscription half of a time operator (debounce, throttle, delay, timeout): its
/// state machine in a ``SerialSink``, one timer slot released with the subscription, the due
/// time and the scheduler. Subclasses handle the source's events in ``on(_:)`` and perform
/// the machine's actions outside the lock.
class TimedSubscription<Machine, Element>: @unchecked Sendable {
  // Safety: the state machine lives in `serial` behind its lock; `timer` synchronises
  // itself; the other properties are immutable.
  let serial: SerialSink<Machine, Element>
  let timer: SerialDisposable
  let dueTime: RxTimeInterval
  let scheduler: SchedulerType

  /// - Parameter resources: Released with the subscription, besides the timer.
  init(
    _ observer: AnyObserver<Element>, machine: Machine, dueTime: RxTimeInterval,
    scheduler: SchedulerType, resources: Disposable? = nil
  ) {
    let timer = SerialDisposable()
    let sink = Sink(observer)
    sink.extra = resources.map { Disposables.create(timer, $0) } ?? timer
    serial = SerialSink(sink, state: machine)
    self.timer = timer
    self.dueTime = dueTime
    self.scheduler = scheduler
  }

  /// Subscribes to `source`; returns the subscription's disposable.
  func run(_ source: Observable<Element>) -> Disposable {
    serial.sink.run(source) { self.on($0) }
  }

  /// Handles one event of the source. Subclasses override it.
  func on(_ event: Event<Element>) {
    preconditionFailure("TimedSubscription.on(_:) is implemented by subclasses.")
  }

  /// Runs `fired(state)` after `delay`, replacing the timer that was pending.
  func startTimer<State>(
    _ state: State, after delay: RxTimeInterval, _ fired: @escaping (State) -> Void
  ) {
    timer.disposable = scheduler.scheduleRelative(state, dueTime: delay) { state in
      fired(state)
      return Disposables.create()
    }
  }
}
