extension ObservableType {
  /// Turns every event, terminal ones included, into an element; the result then
  /// completes. It never fails.
  ///
  /// - Returns: The source's events as elements.
  @inlinable
  public func materialize() -> Observable<Event<Element>> {
    sinking { sink in
      { event in
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
    sinking { sink in
      { event in
        guard case .next(let element) = event else { return sink.forwardTerminal(from: event) }
        sink.forward(element.event)
      }
    }
  }
}
