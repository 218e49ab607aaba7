extension ObservableType {
  /// The sequence's only element, emitted as soon as it arrives, then completion with the
  /// source.
  ///
  /// A second element fails the result with ``RxError/moreThanOneElement`` (and disposes
  /// the source); completion without an element fails it with ``RxError/noElements``.
  ///
  /// - Returns: The sequence of its one element.
  @inlinable
  public func single() -> Observable<Element> {
    single { _ in true }
  }

  /// The only element `predicate` accepts, emitted as soon as it arrives, then completion
  /// with the source; other elements are skipped.
  ///
  /// A second accepted element fails the result with ``RxError/moreThanOneElement``;
  /// completion without one fails it with ``RxError/noElements``; an error thrown by
  /// `predicate` fails it with that error.
  ///
  /// - Parameter predicate: Whether an element counts.
  /// - Returns: The sequence of its one accepted element.
  @inlinable
  public func single(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    sinking { sink in
      let seen = OperatorState(false)
      return { event in
        guard case .completed = event else {
          sink.receive(event) { element in
            guard try predicate(element) else { return }
            guard !seen.value else {
              sink.forwardTerminal(.error(RxError.moreThanOneElement))
              return
            }
            seen.value = true
            sink.forwardNext(element)
          }
          return
        }
        sink.forwardTerminal(seen.value ? .completed : .error(RxError.noElements))
      }
    }
  }
}
