extension ObservableType {
  /// The source's events, or `default` followed by completion when the source completes
  /// without an element.
  ///
  /// - Parameter default: The element to emit for an empty source.
  /// - Returns: The source's elements, or `default`.
  @inlinable
  public func ifEmpty(default: Element) -> Observable<Element> {
    sinking { sink in
      let isEmpty = OperatorState(true)
      return { event in
        switch event {
        case .next(let element):
          isEmpty.value = false
          sink.forwardNext(element)
        case .error:
          sink.forwardTerminal(event)
        case .completed:
          if isEmpty.value { sink.forwardNext(`default`) }
          sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
