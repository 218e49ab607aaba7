extension ObservableType {
  /// Emits an element only after `dueTime` has passed without another element.
  ///
  /// Each element restarts the wait; an element followed by another within `dueTime` is
  /// dropped. On completion a waiting element is emitted at once, then the completion; an
  /// error is forwarded at once and drops the waiting element.
  ///
  /// - Parameters:
  ///   - dueTime: The quiet period an element must survive.
  ///   - scheduler: Runs the timers and delivers timed elements.
  /// - Returns: The debounced sequence.
  // Not inlinable: timed: each element is a scheduler hop; its machine stays private.
  public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> Observable<Element>
  {
    let source = asObservable()
    return Observable { observer in
      DebounceSubscription(
        observer, machine: DebounceStateMachine(), dueTime: dueTime, scheduler: scheduler
      )
      .run(source)
    }
  }
}

/// Runs the ``DebounceStateMachine`` for one subscription: performs its actions outside the
/// lock and owns the timer.
private final class DebounceSubscription<Element>:
  TimedSubscription<DebounceStateMachine<Element>, Element>, @unchecked Sendable
{
  // Safety: no state beyond the base class's.
  override func on(_ event: Event<Element>) {
    switch event {
    case .next(let element):
      let action = serial.transition { machine, _ in machine.next(element) }
      if case .startTimer(let generation) = action {
        startTimer(generation, after: dueTime) { self.timerFired($0) }
      }
    case .error(let error):
      serial.transition { machine, emit in
        if machine.failed() { emit(.error(error)) }
      }
    case .completed:
      serial.transition { machine, emit in
        guard let waiting = machine.completed() else { return }
        if let element = waiting { emit(.next(element)) }
        emit(.completed)
      }
    }
  }

  private func timerFired(_ generation: UInt64) {
    serial.transition { machine, emit in
      if let element = machine.timerFired(generation: generation) { emit(.next(element)) }
    }
  }
}
