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
        // Only the per-element path is inline; terminal events and errors go out of line.
        guard case .next(let element) = event else {
          sink.forwardTerminal(from: event)
          return
        }
        guard sink.isOpen else { return }
        do {
          try accumulator(&accumulate.value, element)
        } catch {
          sink.fail(error)
          return
        }
        sink.forwardNext(accumulate.value)
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
    // Written out rather than built on `scan(into:)`: one closure call per element, not two.
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      let accumulate = OperatorState(seed)
      return sink.run(source) { event in
        guard case .next(let element) = event else {
          sink.forwardTerminal(from: event)
          return
        }
        guard sink.isOpen else { return }
        let next: Accumulate
        do {
          next = try accumulator(accumulate.value, element)
        } catch {
          sink.fail(error)
          return
        }
        accumulate.value = next
        sink.forwardNext(next)
      }
    }
  }
}
