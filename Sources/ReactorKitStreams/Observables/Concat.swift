extension ObservableType {
  /// Subscribes to the sequences of `sources` one after another, each once the previous one
  /// completed.
  ///
  /// The sources are taken from the sequence lazily, when their turn comes. The first error
  /// ends the result; it completes after the last source completed.
  ///
  /// - Parameter sources: The sequences to concatenate, in order.
  /// - Returns: The elements of every source, in order.
  @inlinable
  public static func concat<Sources: Sequence>(_ sources: Sources) -> Observable<Element>
  where Sources.Element == Observable<Element> {
    Observable { observer in
      SequentialSink(observer, sources: sources, mode: .concat).run()
    }
  }

  /// Subscribes to `sources` one after another; see ``concat(_:)-(Sources)``.
  @inlinable
  public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
    concat(sources[...])
  }

  /// Appends the elements of `second` once this sequence completed.
  ///
  /// - Parameter second: The sequence to subscribe after this one completes.
  /// - Returns: The elements of this sequence, then those of `second`.
  @inlinable
  public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
  where Source.Element == Element {
    Observable.concat([asObservable(), second.asObservable()])
  }
}

extension ObservableType where Element: ObservableConvertibleType {
  /// Concatenates the inner sequences: each one is subscribed once the previous one
  /// completed; the ones arriving meanwhile wait in order.
  ///
  /// - Complexity: Memory grows with the number of inner sequences waiting their turn.
  @inlinable
  public func concat() -> Observable<Element.Element> {
    merge(maxConcurrent: 1)
  }
}
