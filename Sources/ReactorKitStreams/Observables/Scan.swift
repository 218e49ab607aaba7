extension ObservableType {
  /// Folds each element into an accumulator, mutated in place, and emits every intermediate
  /// value.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulator, fresh for every subscription.
  ///   - accumulator: Updates the accumulator with an element; a thrown error ends the
  ///     sequence.
  /// - Returns: The accumulator after each element.
  @inlinable
  public func scan<Accumulate>(
    into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
  ) -> Observable<Accumulate> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let accumulate = OperatorState(seed)
      return sink.run(source) { event in
        switch event {
        case .next(let element):
          guard sink.isOpen else { return }
          do {
            try accumulator(&accumulate.value, element)
          } catch {
            sink.forwardTerminal(.error(error))
            return
          }
          sink.forwardNext(accumulate.value)
        case .error(let error):
          sink.forwardTerminal(.error(error))
        case .completed:
          sink.forwardTerminal(.completed)
        }
      }
    }
  }

  /// Folds each element into an accumulator and emits every intermediate value.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulator, fresh for every subscription.
  ///   - accumulator: Returns the next accumulator; a thrown error ends the sequence.
  /// - Returns: The accumulator after each element.
  @inlinable
  public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    scan(into: seed) { accumulate, element in
      accumulate = try accumulator(accumulate, element)
    }
  }
}
