extension ObservableType {
  /// The last `count` elements, emitted when the source completes.
  ///
  /// - Parameter count: How many trailing elements to keep (at least 0).
  /// - Returns: Up to `count` elements, delivered together after the source completed.
  /// - Complexity: Memory grows with `count`.
  @inlinable
  public func takeLast(_ count: Int) -> Observable<Element> {
    precondition(count >= 0, "takeLast(_:) needs a count of at least 0.")
    return sinking { sink in
      let buffer = OperatorState(Queue<Element>())
      return { event in
        switch event {
        case .next(let element):
          guard count > 0 else { return }
          buffer.value.append(element)
          if buffer.value.count > count { _ = buffer.value.popFirst() }
        case .error:
          buffer.value.removeAll()
          sink.forwardTerminal(event)
        case .completed:
          while let element = buffer.value.popFirst(), sink.isOpen {
            sink.forwardNext(element)
          }
          sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
