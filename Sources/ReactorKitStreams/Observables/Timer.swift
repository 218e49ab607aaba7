/// The integer types that ``ObservableType/timer(_:period:scheduler:)`` and
/// ``ObservableType/interval(_:scheduler:)`` count with.
public typealias RxAbstractInteger = FixedWidthInteger

extension ObservableType where Element: RxAbstractInteger {
  /// A sequence of `0, 1, 2, …`, one element every `period`, the first after one `period`.
  ///
  /// The sequence never completes; dispose the subscription to stop it. Values wrap around
  /// on overflow.
  ///
  /// - Parameters:
  ///   - period: The time between two elements.
  ///   - scheduler: Runs the timer and delivers the elements.
  /// - Returns: The counting sequence.
  @inlinable
  public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType)
    -> Observable<Element>
  {
    timer(period, period: period, scheduler: scheduler)
  }

  /// A sequence that emits `0` after `dueTime`, then, when `period` is given, `1, 2, …`
  /// every `period`.
  ///
  /// Without a period it completes right after its only element; with one it never
  /// completes.
  ///
  /// - Parameters:
  ///   - dueTime: The delay before the first element.
  ///   - period: The time between later elements, or `nil` for a single element.
  ///   - scheduler: Runs the timers and delivers the elements.
  /// - Returns: The timer sequence.
  @inlinable
  public static func timer(
    _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: SchedulerType
  ) -> Observable<Element> {
    guard let period else {
      return Observable { observer in
        let sink = Sink(observer)
        sink.setUpstream(
          scheduler.scheduleRelative((), dueTime: dueTime) { _ in
            sink.forwardNext(0)
            sink.forwardTerminal(.completed)
            return Disposables.create()
          })
        return sink
      }
    }
    return Observable { observer in
      let sink = Sink(observer)
      sink.setUpstream(
        scheduler.schedulePeriodic(0 as Element, startAfter: dueTime, period: period) { count in
          sink.forwardNext(count)
          return count &+ 1
        })
      return sink
    }
  }
}
