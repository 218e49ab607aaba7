extension ObservableType {
  /// Pairs each element with its position, counting from zero.
  ///
  /// - Returns: Index and element tuples.
  @inlinable
  public func enumerated() -> Observable<(index: Int, element: Element)> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let index = OperatorState(0)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          let current = index.value
          let (next, overflow) = current.addingReportingOverflow(1)
          if overflow {
            sink.forwardTerminal(.error(RxError.overflow))
            return
          }
          index.value = next
          sink.forwardNext((current, element))
        case .error(let error):
          sink.forwardTerminal(.error(error))
        case .completed:
          sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
