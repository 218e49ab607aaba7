extension ObservableType {
  /// Turns every event, terminal ones included, into an element; the result then
  /// completes. It never fails.
  ///
  /// - Returns: The source's events as elements.
  @inlinable
  public func materialize() -> Observable<Event<Element>> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        sink.forwardNext(event)
        if event.isStopEvent { sink.forwardTerminal(.completed) }
      }
    }
  }
}

extension ObservableType where Element: EventConvertible {
  /// Turns elements that are events back into events: the inverse of
  /// ``ObservableType/materialize()``.
  ///
  /// - Returns: The sequence the events describe.
  @inlinable
  public func dematerialize() -> Observable<Element.Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          sink.forward(element.event)
        case .error(let error):
          sink.forwardTerminal(.error(error))
        case .completed:
          sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
