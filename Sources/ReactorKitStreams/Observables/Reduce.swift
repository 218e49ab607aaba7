extension ObservableType {
  /// Folds every element into an accumulator and emits `mapResult` of the final value when
  /// the source completes.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulator, fresh for every subscription.
  ///   - accumulator: Returns the next accumulator; a thrown error ends the sequence.
  ///   - mapResult: Turns the final accumulator into the result.
  /// - Returns: A sequence of one element, emitted on completion.
  @inlinable
  public func reduce<Accumulate, Result>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
    mapResult: @escaping (Accumulate) throws -> Result
  ) -> Observable<Result> {
    reduceSink(seed, { $0 = try accumulator($0, $1) }, mapResult)
  }

  /// Folds every element into an accumulator and emits the final value when the source
  /// completes.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulator, fresh for every subscription.
  ///   - accumulator: Returns the next accumulator; a thrown error ends the sequence.
  /// - Returns: A sequence of one element, emitted on completion.
  @inlinable
  public func reduce<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    reduceSink(seed, { $0 = try accumulator($0, $1) }, { $0 })
  }

  /// Folds every element into an accumulator mutated in place and emits the final value
  /// when the source completes.
  ///
  /// - Parameters:
  ///   - seed: The initial accumulator, fresh for every subscription.
  ///   - accumulator: Updates the accumulator; a thrown error ends the sequence.
  /// - Returns: A sequence of one element, emitted on completion.
  @inlinable
  public func reduce<Accumulate>(
    into seed: Accumulate, _ accumulator: @escaping (inout Accumulate, Element) throws -> Void
  ) -> Observable<Accumulate> {
    reduceSink(seed, accumulator, { $0 })
  }

  /// Collects every element and emits them as one array when the source completes.
  ///
  /// - Returns: A sequence of one array.
  /// - Complexity: Memory grows with the number of elements.
  @inlinable
  public func toArray() -> Observable<[Element]> {
    reduceSink([], { $0.append($1) }, { $0 })
  }

  @inlinable
  func reduceSink<Accumulate, Result>(
    _ seed: Accumulate, _ accumulator: @escaping (inout Accumulate, Element) throws -> Void,
    _ mapResult: @escaping (Accumulate) throws -> Result
  ) -> Observable<Result> {
    sinking { sink in
      let accumulate = OperatorState(seed)
      return { event in
        guard case .completed = event else {
          sink.receive(event) { try accumulator(&accumulate.value, $0) }
          return
        }
        do {
          sink.forwardNext(try mapResult(accumulate.value))
        } catch {
          sink.fail(error)
          return
        }
        sink.forwardTerminal(.completed)
      }
    }
  }
}
