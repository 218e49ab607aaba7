extension ObservableType {
  /// Emits `elements` first, synchronously on subscription, then the source's events.
  ///
  /// - Parameter elements: The elements to emit before the source's.
  /// - Returns: `elements` followed by the source.
  @inlinable
  public func startWith(_ elements: Element...) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      for element in elements { sink.forwardNext(element) }
      return sink.run(source) { sink.forward($0) }
    }
  }
}
