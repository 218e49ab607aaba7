extension ObservableType {
  /// Fails with ``RxError/timeout`` when the first element does not arrive within `dueTime`
  /// of subscribing, or a later one within `dueTime` of its predecessor.
  ///
  /// - Parameters:
  ///   - dueTime: The longest allowed wait for each element.
  ///   - scheduler: Runs the timeout timers.
  /// - Returns: The source sequence, or a ``RxError/timeout`` error after a timeout.
  @inlinable
  public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
    timeout(dueTime, other: Observable<Element>.error(RxError.timeout), scheduler: scheduler)
  }

  /// Switches to `other` when the first element does not arrive within `dueTime` of
  /// subscribing, or a later one within `dueTime` of its predecessor.
  ///
  /// On a timeout the source subscription is disposed and `other` is subscribed; its events
  /// follow from then on.
  ///
  /// - Parameters:
  ///   - dueTime: The longest allowed wait for each element.
  ///   - other: The sequence to continue with after a timeout.
  ///   - scheduler: Runs the timeout timers.
  /// - Returns: The source sequence, switching to `other` after a timeout.
  // Not inlinable: timed: each element rearms a timer; its machine stays private.
  public func timeout<Other: ObservableConvertibleType>(
    _ dueTime: RxTimeInterval, other: Other, scheduler: SchedulerType
  ) -> Observable<Element> where Other.Element == Element {
    let source = asObservable()
    let other = other.asObservable()
    return Observable { observer in
      TimeoutSubscription(observer, dueTime: dueTime, scheduler: scheduler).run(source, other)
    }
  }
}

/// The state of one `timeout` subscription: which element's timer is current and whether
/// the timer won the race against the source.
struct TimeoutStateMachine {
  private var generation: UInt64 = 0
  private var switched = false
  private var finished = false

  /// The generation the first timer runs for.
  var initialGeneration: UInt64 { generation }

  /// A source element arrived; returns the generation of the timer to restart, or `nil`
  /// when the element is to be dropped.
  mutating func next() -> UInt64? {
    guard !switched, !finished else { return nil }
    generation &+= 1
    return generation
  }

  /// The source terminated; returns whether to forward the terminal event.
  mutating func terminated() -> Bool {
    guard !switched, !finished else { return false }
    finished = true
    generation &+= 1
    return true
  }

  /// The timer of `fired` ran out; returns whether to switch to the other sequence.
  mutating func timerFired(generation fired: UInt64) -> Bool {
    guard !switched, !finished, fired == generation else { return false }
    switched = true
    return true
  }
}

private final class TimeoutSubscription<Element>:
  TimedSubscription<TimeoutStateMachine, Element>, @unchecked Sendable
{
  // Safety: `otherSubscription` synchronises itself; the rest is the base class's.
  private let otherSubscription: SingleAssignmentDisposable

  init(_ observer: AnyObserver<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) {
    let otherSubscription = SingleAssignmentDisposable()
    self.otherSubscription = otherSubscription
    super.init(
      observer, machine: TimeoutStateMachine(), dueTime: dueTime, scheduler: scheduler,
      resources: otherSubscription)
  }

  func run(_ source: Observable<Element>, _ other: Observable<Element>) -> Disposable {
    startTimer(serial.read(\.initialGeneration), other: other)
    return serial.sink.run(source) { event in
      switch event {
      case .next:
        let generation = self.serial.transition { machine, emit in
          let generation = machine.next()
          if generation != nil { emit(event) }
          return generation
        }
        if let generation { self.startTimer(generation, other: other) }
      case .error, .completed:
        self.serial.transition { machine, emit in
          if machine.terminated() { emit(event) }
        }
      }
    }
  }

  private func startTimer(_ generation: UInt64, other: Observable<Element>) {
    super.startTimer(generation, after: dueTime) { generation in
      let switches = self.serial.transition { machine, _ in
        machine.timerFired(generation: generation)
      }
      if switches {
        self.serial.sink.disposeUpstream()
        self.otherSubscription.setDisposable(
          other.subscribe(
            AnyObserver { event in self.serial.transition { _, emit in emit(event) } }))
      }
    }
  }
}
