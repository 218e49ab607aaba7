extension ObservableType {
  /// The last `count` elements, emitted when the source completes.
  ///
  /// - Parameter count: How many trailing elements to keep (at least 0).
  /// - Returns: Up to `count` elements, delivered together after the source completed.
  /// - Complexity: Memory grows with `count`.
  @inlinable
  public func takeLast(_ count: Int) -> Observable<Element> {
    precondition(count >= 0, "takeLast(_:) needs a count of at least 0.")
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      var buffer = Queue<Element>()
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard count > 0 else { return }
          buffer.append(element)
          if buffer.count > count { _ = buffer.popFirst() }
        case .error:
          buffer.removeAll()
          sink.forwardTerminal(event)
        case .completed:
          while let element = buffer.popFirst(), sink.isOpen {
            sink.forwardNext(element)
          }
          sink.forwardTerminal(.completed)
        }
      }
    }
  }
}
