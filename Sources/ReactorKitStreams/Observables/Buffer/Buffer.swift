extension ObservableType {
  /// Collects the elements into arrays, each emitted when it holds `count` elements or
  /// `timeSpan` after the previous one was emitted (or after subscription), whichever comes
  /// first.
  ///
  /// A `timeSpan` with no element emits an empty array, as in RxSwift. On completion the
  /// elements collected so far are emitted (possibly none), then the completion; an error is
  /// forwarded at once and drops them.
  ///
  /// - Parameters:
  ///   - timeSpan: The longest time an array collects.
  ///   - count: The most elements in one array (at least 1).
  ///   - scheduler: Runs the timers.
  /// - Returns: The arrays of elements.
  // Not inlinable: timed: each chunk is a scheduler hop; its machine stays internal.
  public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType)
    -> Observable<[Element]>
  {
    let chunks = timeCountChunks(timeSpan: timeSpan, count: count, scheduler: scheduler)
    return Observable { observer in
      let sink = Sink(observer)
      let buffer = OperatorState<[Element]>([])
      return sink.run(chunks) { event in
        switch event {
        case .next(.open): buffer.value = []
        case .next(.add(let element)): buffer.value.append(element)
        case .next(.close): sink.forwardNext(buffer.value)
        case .error, .completed: sink.forwardTerminal(from: event)
        }
      }
    }
  }
}
