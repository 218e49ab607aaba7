extension ObservableType {
  /// Emits at most one element per `dueTime`: the first element at once, then (with
  /// `latest`) the latest element of each window when the window ends.
  ///
  /// An element arriving `dueTime` or more after the last emitted one is emitted at once.
  /// Inside a window, `latest: true` keeps the newest element and emits it when the window
  /// ends; `latest: false` drops it. Completion waits for a kept element; an error is
  /// forwarded at once.
  ///
  /// - Parameters:
  ///   - dueTime: The minimum time between two emitted elements.
  ///   - latest: Whether to emit the latest element of a window when it ends.
  ///   - scheduler: Provides the time, runs the timers and delivers timed elements.
  /// - Returns: The throttled sequence.
  // Not inlinable: timed: each element is a scheduler hop; its machine stays private.
  public func throttle(
    _ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType
  ) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      ThrottleSubscription(observer, dueTime: dueTime, latest: latest, scheduler: scheduler)
        .run(source)
    }
  }
}

/// Runs the ``ThrottleStateMachine`` for one subscription: performs its actions outside the
/// lock and owns the timer.
private final class ThrottleSubscription<Element>:
  TimedSubscription<ThrottleStateMachine<Element>, Element>, @unchecked Sendable
{
  // Safety: no state beyond the base class's.
  init(
    _ observer: AnyObserver<Element>, dueTime: RxTimeInterval, latest: Bool,
    scheduler: SchedulerType
  ) {
    super.init(
      observer, machine: ThrottleStateMachine(dueTime: dueTime.seconds, latest: latest),
      dueTime: dueTime, scheduler: scheduler)
  }

  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      let now = scheduler.now
      let action = serial.transition { machine, emit in
        let action = machine.next(element, now: now)
        if case .emit(let element) = action { emit(.next(element)) }
        return action
      }
      if case .startTimer(let delay, let generation) = action {
        startTimer(generation, after: .rxSeconds(delay)) { self.timerFired($0) }
      }
    case .error(let error):
      serial.transition { machine, emit in
        if machine.failed() { emit(.error(error)) }
      }
    case .completed:
      let action = serial.transition { machine, emit in
        let action = machine.completed()
        if case .complete = action { emit(.completed) }
        return action
      }
      if case .waitForTimer = action { serial.sink.disposeUpstream() }
    }
  }

  private func timerFired(_ generation: UInt64) {
    let now = scheduler.now
    serial.transition { machine, emit in
      switch machine.timerFired(generation: generation, now: now) {
      case .emit(let element, let thenComplete):
        emit(.next(element))
        if thenComplete { emit(.completed) }
      case .complete:
        emit(.completed)
      case .none:
        break
      }
    }
  }
}
