extension ObservableType {
  /// The source's events, or `other`'s when the source completes without an element.
  ///
  /// `other` is subscribed only then; the source's error is forwarded as it is.
  ///
  /// - Parameter other: The sequence to continue with when the source is empty.
  /// - Returns: The source's elements, or `other`'s.
  @inlinable
  public func ifEmpty(switchTo other: Observable<Element>) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let first = SingleAssignmentDisposable()
      let second = SingleAssignmentDisposable()
      let sink = Sink(observer)
      let isEmpty = OperatorState(true)
      sink.setUpstream(Disposables.create(first, second))
      first.setDisposable(
        source.subscribe(
          AnyObserver { event in
            switch event {
            case .next(let element):
              isEmpty.value = false
              sink.forwardNext(element)
            case .error(let error):
              sink.forwardTerminal(.error(error))
            case .completed:
              guard isEmpty.value else {
                sink.forwardTerminal(.completed)
                return
              }
              // The source is done: let go of it before switching (as RxSwift does).
              first.dispose()
              second.setDisposable(other.subscribe(AnyObserver { sink.forward($0) }))
            }
          }))
      return sink
    }
  }
}
