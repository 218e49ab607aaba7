extension ObservableType {
  /// The first element, or `nil` when the sequence completes without one, as a ``Single``.
  ///
  /// The source is disposed as soon as its first element arrives; its error fails the
  /// single.
  ///
  /// - Returns: A single of the first element, or of `nil`.
  @inlinable
  public func first() -> Single<Element?> {
    Single(
      raw: sinking { (sink: Sink<Element?>) in
        { event in
          switch event {
          case .next(let element):
            sink.forwardNext(element)
            sink.forwardTerminal(.completed)
          case .error(let error):
            sink.forwardTerminal(.error(error))
          case .completed:
            sink.forwardNext(nil)
            sink.forwardTerminal(.completed)
          }
        }
      })
  }
}
