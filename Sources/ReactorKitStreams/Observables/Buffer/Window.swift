extension ObservableType {
  /// Splits the elements into windows: observables that each receive up to `count`
  /// elements, or the elements of `timeSpan`, whichever ends first.
  ///
  /// The first window is emitted at subscription and each later one when the previous
  /// completes. Subscribe to a window when it is emitted: windows are hot (a
  /// ``PublishSubject`` each) and replay nothing. Completion of the source completes the
  /// current window, then the result; an error fails both.
  ///
  /// > Note: Unlike RxSwift, a window does not keep the source subscribed once the result's
  /// > own subscription is disposed: disposing it stops every window without completing it.
  ///
  /// - Parameters:
  ///   - timeSpan: The longest time a window stays open.
  ///   - count: The most elements in one window (at least 1).
  ///   - scheduler: Runs the timers.
  /// - Returns: The windows.
  // Not inlinable: timed: each window is a scheduler hop; its machine stays internal.
  public func window(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType)
    -> Observable<Observable<Element>>
  {
    let chunks = timeCountChunks(timeSpan: timeSpan, count: count, scheduler: scheduler)
    return Observable { observer in
      let sink = Sink(observer)
      let current = OperatorState<PublishSubject<Element>?>(nil)
      return sink.run(chunks) { event in
        switch event {
        case .next(.open):
          let window = PublishSubject<Element>()
          current.value = window
          sink.forwardNext(window.asObservable())
        case .next(.add(let element)):
          current.value?.onNext(element)
        case .next(.close):
          current.value?.onCompleted()
          current.value = nil
        case .error(let error):
          current.value?.onError(error)
          current.value = nil
          sink.forwardTerminal(.error(error))
        case .completed:
          sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
