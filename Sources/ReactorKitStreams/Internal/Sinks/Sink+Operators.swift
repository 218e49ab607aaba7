// The shared skeleton of the simple operators (map, filter, scan, skip, take, reduce, …): a
// `Sink` per subscription and an event handler made for it. Everything here inlines into the
// operator, so the per-element path is the same code as when written out by hand.

extension ObservableType {
  /// An observable that, for every subscription, makes a ``Sink`` for the observer, asks
  /// `makeHandler` for the handler of this sequence's events (making any per-subscription
  /// state there) and subscribes the handler to this sequence.
  ///
  /// - Parameter makeHandler: Called once per subscription with that subscription's sink.
  @inlinable
  func sinking<Result>(
    _ makeHandler: @escaping (Sink<Result>) -> (Event<Element>) -> Void
  ) -> Observable<Result> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      return sink.run(source, makeHandler(sink))
    }
  }
}

extension Sink {
  /// Handles `event` the way most operators do: an element goes to `onElement` while the sink
  /// is open, and an error `onElement` throws ends the sequence; a terminal event is forwarded
  /// (out of line).
  @inlinable @inline(__always)
  func receive<Input>(_ event: Event<Input>, _ onElement: (Input) throws -> Void) {
    guard case .next(let element) = event else {
      forwardTerminal(from: event)
      return
    }
    guard isOpen else { return }
    do {
      try onElement(element)
    } catch {
      fail(error)
    }
  }
}
