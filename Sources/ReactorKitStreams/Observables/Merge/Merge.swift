extension ObservableType {
  /// Merges the events of `sources` into one sequence.
  ///
  /// Every source is subscribed at once. Elements are delivered serially, in the order they
  /// arrive, even when sources emit from different threads. The result completes when every
  /// source completed; the first error ends it and disposes every source.
  ///
  /// - Parameter sources: The sequences to merge.
  /// - Returns: The merged sequence.
  @inlinable
  public static func merge<Sources: Collection>(_ sources: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    Observable { observer in
      MergeSink(
        observer, strategy: .concurrent(maxConcurrent: .max),
        selector: { (source: Observable<Element>) in source }
      ).run(elements: sources)
    }
  }

  /// Merges the events of `sources` into one sequence; see ``merge(_:)-(Sources)``.
  @inlinable
  public static func merge(_ sources: [Observable<Element>]) -> Observable<Element> {
    merge(sources[...])
  }

  /// Merges the events of `sources` into one sequence; see ``merge(_:)-(Sources)``.
  @inlinable
  public static func merge(_ sources: Observable<Element>...) -> Observable<Element> {
    merge(sources[...])
  }
}

extension ObservableType where Element: ObservableConvertibleType {
  /// Merges the events of every inner sequence this sequence emits.
  ///
  /// The result completes once this sequence and every inner sequence completed; the first
  /// error ends it.
  @inlinable
  public func merge() -> Observable<Element.Element> {
    flatMap { $0 }
  }

  /// Merges the inner sequences, running at most `maxConcurrent` of them at once; the others
  /// wait in arrival order.
  ///
  /// - Parameter maxConcurrent: The largest number of inner subscriptions at a time (at
  ///   least 1).
  /// - Complexity: Memory grows with the number of inner sequences waiting their turn.
  @inlinable
  public func merge(maxConcurrent: Int) -> Observable<Element.Element> {
    precondition(maxConcurrent > 0, "merge(maxConcurrent:) needs a limit of at least 1.")
    return merged(.concurrent(maxConcurrent: maxConcurrent)) { $0 }
  }

  /// Forwards the elements of the most recent inner sequence; see
  /// ``ObservableType/flatMapLatest(_:)``.
  @inlinable
  public func switchLatest() -> Observable<Element.Element> {
    flatMapLatest { $0 }
  }
}
