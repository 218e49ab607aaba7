extension ObservableType {
  /// Pairs the elements of the sources by position: the n-th result combines the n-th
  /// element of each source with `resultSelector` (2 to 8 sources, as in RxSwift).
  ///
  /// Elements wait in a buffer per source until every source has one. Delivery is serial
  /// even when the sources emit from different threads. The result completes when every
  /// source completed; an error from any source, or thrown by `resultSelector`, ends it.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - resultSelector: Combines elements at the same position.
  /// - Returns: The combined elements.
  /// - Complexity: Memory grows with how far one source runs ahead of another.
  @inlinable
  public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2,
    resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    combine(ZipMode.self, source1, source2, select: resultSelector)
  }

  /// Pairs the elements of every source in `sources` by position and combines them with
  /// `resultSelector`; see ``zip(_:_:resultSelector:)``.
  ///
  /// Unlike the fixed arities, and as in RxSwift, the result also completes when an element
  /// arrives while every other source has completed and one of them has nothing buffered: it
  /// could never be paired. An empty collection completes at once.
  @inlinable
  public static func zip<Sources: Collection>(
    _ sources: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
  ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
    Observable { observer in
      let mode = ZipCollectionMode.self
      let sink = CombineSink(
        observer, mode, arity: sources.count,
        slots: Array(repeating: CombineSlot<Sources.Element.Element>(), count: sources.count),
        take: { slots in slots.indices.map { slots[$0].take(mode) } },
        select: resultSelector)
      for (index, source) in sources.enumerated() {
        sink.subscribe(source, at: index) { sink.on($0, at: index) { $0[index].put($1, mode) } }
      }
      return sink.finishSubscribingCombined()
    }
  }

  /// Pairs the elements of every source in `sources` by position into arrays; see
  /// ``zip(_:resultSelector:)``.
  @inlinable
  public static func zip<Sources: Collection>(_ sources: Sources) -> Observable<[Element]>
  where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
    Observable<[Element]>.zip(sources) { $0 }
  }
}

extension ObservableType where Element == Any {
  /// Pairs the elements of two sources by position into tuples; see
  /// ``ObservableType/zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2
  ) -> Observable<(O1.Element, O2.Element)> {
    Observable<(O1.Element, O2.Element)>.zip(source1, source2) { ($0, $1) }
  }
}
