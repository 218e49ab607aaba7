extension ObservableType {
  /// Maps each element to an inner sequence and merges the events of all inner sequences.
  ///
  /// Inner sequences run concurrently; their elements are delivered serially, in the order
  /// they arrive. The result completes once the source and every inner sequence completed; an
  /// error from any of them, or thrown by `selector`, ends it and disposes everything.
  ///
  /// - Parameter selector: Turns an element into an inner sequence.
  /// - Returns: The merged elements of the inner sequences.
  @inlinable
  public func flatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  ) -> Observable<Source.Element> {
    merged(.concurrent(maxConcurrent: .max), selector)
  }

  /// Maps each element to an inner sequence and forwards only the newest one: a new element
  /// disposes the previous inner sequence.
  ///
  /// The result completes once the source and the current inner sequence completed; an error
  /// from the source or the current inner sequence ends it.
  ///
  /// - Parameter selector: Turns an element into an inner sequence.
  /// - Returns: The elements of the most recent inner sequence.
  @inlinable
  public func flatMapLatest<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  ) -> Observable<Source.Element> {
    merged(.latest, selector)
  }

  /// Maps an element to an inner sequence only while no inner sequence is running; elements
  /// arriving meanwhile are dropped (`selector` is not called for them).
  ///
  /// - Parameter selector: Turns an element into an inner sequence.
  /// - Returns: The elements of the inner sequences, one after another.
  @inlinable
  public func flatMapFirst<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  ) -> Observable<Source.Element> {
    merged(.first, selector)
  }

  /// Maps each element to an inner sequence and concatenates them: each inner sequence is
  /// subscribed once the previous one completed.
  ///
  /// `selector` runs when the element arrives; the inner sequences wait in order.
  ///
  /// - Parameter selector: Turns an element into an inner sequence.
  /// - Returns: The elements of the inner sequences, in the order of the source elements.
  /// - Complexity: Memory grows with the number of inner sequences waiting their turn.
  @inlinable
  public func concatMap<Source: ObservableConvertibleType>(
    _ selector: @escaping (Element) throws -> Source
  ) -> Observable<Source.Element> {
    merged(.concurrent(maxConcurrent: 1), selector)
  }
}

extension ObservableType {
  /// This sequence's elements mapped to inner sequences by `selector` and merged by a
  /// ``MergeSink`` with `strategy`: the body of every operator of the merge family.
  @inlinable
  func merged<Inner: ObservableConvertibleType>(
    _ strategy: MergeStateMachine<Inner>.Strategy,
    _ selector: @escaping (Element) throws -> Inner
  ) -> Observable<Inner.Element> {
    let source = asObservable()
    return Observable { observer in
      MergeSink(observer, strategy: strategy, selector: selector).run(source)
    }
  }
}
