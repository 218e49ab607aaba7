extension ObservableType {
  /// The element at `index` (counting from zero), then completion.
  ///
  /// If the source completes earlier, the result fails with
  /// ``RxError/argumentOutOfRange``.
  ///
  /// - Parameter index: The position of the element (at least 0).
  /// - Returns: A sequence of that one element.
  @inlinable
  public func element(at index: Int) -> Observable<Element> {
    precondition(index >= 0, "element(at:) needs an index of at least 0.")
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let remaining = OperatorState(index)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          if remaining.value == 0 {
            sink.forwardNext(element)
            sink.forwardTerminal(.completed)
          } else {
            remaining.value -= 1
          }
        case .error:
          sink.forwardTerminal(event)
        case .completed:
          sink.forwardTerminal(.error(RxError.argumentOutOfRange))
        }
      }
    }
  }
}
