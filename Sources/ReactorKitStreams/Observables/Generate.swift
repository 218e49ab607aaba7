extension ObservableType {
  /// Emits `initialState`, then each state `iterate` makes from the previous one, as long as
  /// `condition` holds; then completes.
  ///
  /// Each step runs on `scheduler` (by default the current-thread trampoline, so long
  /// sequences do not grow the stack). An error thrown by `condition` or `iterate` ends the
  /// sequence. `iterate` runs only when the next step starts, after the previous state was
  /// delivered, and not once the subscription is disposed (`take` being done), so an
  /// unbounded sequence is fine.
  ///
  /// - Parameters:
  ///   - initialState: The first state.
  ///   - condition: Whether a state is emitted; the first `false` completes the sequence.
  ///   - scheduler: Runs the steps.
  ///   - iterate: Makes the next state from the previous one.
  /// - Returns: The states.
  @inlinable
  public static func generate(
    initialState: Element, condition: @escaping (Element) throws -> Bool,
    scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
    iterate: @escaping (Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      Sink(observer).produce(from: (state: initialState, isFirst: true), on: scheduler) { step in
        if step.isFirst {
          step.isFirst = false
        } else {
          step.state = try iterate(step.state)
        }
        return try condition(step.state) ? step.state : nil
      }
    }
  }
}

extension ObservableType where Element: RxAbstractInteger {
  /// Emits `count` consecutive integers starting at `start`, one per step of `scheduler`,
  /// then completes.
  ///
  /// - Precondition: `count` is not negative and `start + count - 1` does not overflow.
  /// - Parameters:
  ///   - start: The first integer.
  ///   - count: How many integers.
  ///   - scheduler: Runs the steps (by default the current-thread trampoline).
  /// - Returns: `start`, `start + 1`, …, `start + count - 1`.
  @inlinable
  public static func range(
    start: Element, count: Element,
    scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> {
    precondition(count >= 0, "range(start:count:) needs a count of at least 0.")
    precondition(
      count == 0 || !start.addingReportingOverflow(count - 1).overflow,
      "range(start:count:) overflows its element type.")
    return Observable { observer in
      Sink(observer).produce(from: 0 as Element, on: scheduler) { index in
        guard index < count else { return nil }
        defer { index += 1 }
        return start + index
      }
    }
  }
}
