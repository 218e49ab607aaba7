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
    // The elements before `index` are dropped as `skip(_:)` drops them.
    return skip(index).sinking { sink in
      { event in
        switch event {
        case .next(let element):
          sink.forwardNext(element)
          sink.forwardTerminal(.completed)
        case .error:
          sink.forwardTerminal(event)
        case .completed:
          sink.forwardTerminal(.error(RxError.argumentOutOfRange))
        }
      }
    }
  }
}
