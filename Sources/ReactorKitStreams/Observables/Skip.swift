extension ObservableType {
  /// Drops the first `count` elements and forwards the rest.
  ///
  /// - Parameter count: How many elements to drop (at least 0).
  /// - Returns: The elements after the first `count`.
  @inlinable
  public func skip(_ count: Int) -> Observable<Element> {
    precondition(count >= 0, "skip(_:) needs a count of at least 0.")
    return sinking { sink in
      let remaining = OperatorState(count)
      return { event in
        guard case .next(let element) = event else { return sink.forwardTerminal(event) }
        if remaining.value > 0 {
          remaining.value -= 1
        } else {
          sink.forwardNext(element)
        }
      }
    }
  }

  /// Drops elements while `predicate` returns `true`, then forwards every later element
  /// without asking again.
  ///
  /// - Parameter predicate: Tells whether to keep dropping; a thrown error ends the sequence.
  /// - Returns: The elements from the first one failing `predicate` on.
  @inlinable
  public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    sinking { sink in
      let skipping = OperatorState(true)
      return { event in
        sink.receive(event) { element in
          if skipping.value {
            skipping.value = try predicate(element)
            if skipping.value { return }
          }
          sink.forwardNext(element)
        }
      }
    }
  }

  /// Drops elements until `other` emits an element, then forwards the rest.
  ///
  /// An error from `other` ends the result. Completion of this sequence is forwarded only
  /// once `other` has emitted; before that the subscription just ends, without an event (as
  /// in RxSwift). Delivery is serial even when both emit from different threads.
  ///
  /// - Parameter other: The sequence whose first element opens the gate.
  /// - Returns: The elements emitted after `other` emitted.
  @inlinable
  public func skip<Other: ObservableConvertibleType>(until other: Other) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      GateSink<Element, Other.Element>(observer, .skip(completesWhileClosed: false))
        .run(source, other.asObservable())
    }
  }

  /// Drops the elements of the first `duration` and forwards the later ones (RxSwift's
  /// time-based `skip`). Completion and errors are forwarded whenever they happen.
  ///
  /// - Parameters:
  ///   - duration: How long to drop elements, from subscription.
  ///   - scheduler: Runs the timer.
  /// - Returns: The elements emitted after `duration`.
  @inlinable
  public func skip(_ duration: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
    let source = asObservable()
    let timer = Observable<Int>.timer(duration, scheduler: scheduler)
    return Observable { observer in
      GateSink<Element, Int>(observer, .skip(completesWhileClosed: true)).run(source, timer)
    }
  }
}
