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
    sinking { sink in
      let accumulate = OperatorState(seed)
      return { event in
        // Only the per-element path is inline; terminal events and errors go out of line.
        sink.receive(event) { element in
          try accumulator(&accumulate.value, element)
          sink.forwardNext(accumulate.value)
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
    // Written out rather than built on `scan(into:)`: one closure call per element, not two.
    sinking { sink in
      let accumulate = OperatorState(seed)
      return { event in
        sink.receive(event) { element in
          let next = try accumulator(accumulate.value, element)
          accumulate.value = next
          sink.forwardNext(next)
        }
      }
    }
  }
}
