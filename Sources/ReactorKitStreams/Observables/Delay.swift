import Foundation

extension ObservableType {
  /// Shifts every element and the completion forward in time by `dueTime`; errors are
  /// forwarded at once.
  ///
  /// On a virtual-time scheduler (`TestScheduler`) each event gets its own scheduled action,
  /// as in RxSwift: events due at the same moment are delivered one action after another, so
  /// `Single.just(1).delay(.seconds(2), scheduler: testScheduler)` subscribed at 200 emits at
  /// 202 and completes at 203. Real schedulers deliver everything due in one action.
  ///
  /// The source subscription is released as soon as the source terminates; elements already
  /// received are still delivered, in order, at their shifted times. An error drops the
  /// elements still waiting.
  ///
  /// - Parameters:
  ///   - dueTime: How long each event is held back.
  ///   - scheduler: Provides the time, runs the timers and delivers the delayed events.
  /// - Returns: The delayed sequence.
  // Not inlinable: timed: each element is a scheduler hop; its machine stays private.
  public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      DelaySubscription(
        observer, machine: DelayStateMachine(oneEventPerAction: scheduler is VirtualTimeScheduling),
        dueTime: dueTime, scheduler: scheduler
      )
      .run(source)
    }
  }

  /// Subscribes to the source only after `dueTime`; disposing before then cancels the
  /// subscription.
  ///
  /// - Parameters:
  ///   - dueTime: How long to wait before subscribing.
  ///   - scheduler: Runs the timer; the source is subscribed from it.
  /// - Returns: The sequence with a delayed subscription.
  @inlinable
  public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType)
    -> Observable<Element>
  {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      sink.setUpstream(
        scheduler.scheduleRelative((), dueTime: dueTime) { _ in
          source.subscribe(AnyObserver { sink.forward($0) })
        })
      return sink
    }
  }
}

/// The state of one `delay` subscription: the events waiting for their time, and whether a
/// timer is running for the oldest of them.
struct DelayStateMachine<Element> {
  /// What to do after an element or the completion arrived.
  enum EnqueueAction {
    /// Start a timer for the oldest waiting event.
    case startTimer
    case none
  }

  /// What to do after the timer fired.
  enum TimerAction {
    /// Start a timer for the next waiting event, `delay` seconds from now.
    case startTimer(delay: Double)
    case none
  }

  /// Events not yet emitted, oldest first; each is released once emitted.
  private var waiting = Queue<(due: Date, event: Event<Element>)>()
  private var timerRunning = false
  private var sourceEnded = false
  private var failed = false
  /// Whether each timer emits only the oldest event (virtual time, as in RxSwift), instead of
  /// every event that is due.
  private let oneEventPerAction: Bool

  init(oneEventPerAction: Bool) {
    self.oneEventPerAction = oneEventPerAction
  }

  mutating func enqueue(_ event: Event<Element>, due: Date) -> EnqueueAction {
    guard !sourceEnded else { return .none }
    if event.isStopEvent { sourceEnded = true }
    waiting.append((due, event))
    guard !timerRunning else { return .none }
    timerRunning = true
    return .startTimer
  }

  /// The timer fired at `now`: emits the oldest event, whose timer this was, and every other
  /// event that is due unless each event gets its own action.
  mutating func timerFired(now: Date, emit: (Event<Element>) -> Void) -> TimerAction {
    guard !failed else { return .none }
    var first = true
    while let next = waiting.first, first || (!oneEventPerAction && next.due <= now) {
      first = false
      _ = waiting.popFirst()
      emit(next.event)
    }
    guard let next = waiting.first else {
      timerRunning = false
      return .none
    }
    return .startTimer(delay: max(0, next.due.timeIntervalSince(now)))
  }

  /// The source failed; returns whether the error is to be forwarded.
  mutating func fail() -> Bool {
    guard !sourceEnded else { return false }
    sourceEnded = true
    failed = true
    waiting.removeAll()
    return true
  }
}

private final class DelaySubscription<Element>:
  TimedSubscription<DelayStateMachine<Element>, Element>, @unchecked Sendable
{
  // Safety: no state beyond the base class's.
  override func on(_ event: Event<Element>) {
    switch event {
    case .next, .completed:
      let due = scheduler.now.adding(dueTime)
      let action = serial.transition { machine, _ in machine.enqueue(event, due: due) }
      if event.isStopEvent { serial.sink.disposeUpstream() }
      if case .startTimer = action { startTimer(after: dueTime) }
    case .error:
      serial.transition { machine, emit in
        if machine.fail() { emit(event) }
      }
    }
  }

  /// Starts the chain of timers that drains the waiting events. Only the source thread
  /// starts a chain (when none runs); each timer schedules the next one itself.
  private func startTimer(after delay: RxTimeInterval) {
    timer.disposable = scheduler.scheduleRecursive((), dueTime: delay) { _, recurse in
      let now = self.scheduler.now
      let action = self.serial.transition { machine, emit in
        machine.timerFired(now: now, emit: emit)
      }
      if case .startTimer(let delay) = action { recurse((), .rxSeconds(delay)) }
    }
  }
}
