extension ObservableType {
  /// Combines the latest elements of the sources with `resultSelector` whenever one emits,
  /// once each has emitted at least once (2 to 8 sources, as in RxSwift).
  ///
  /// Elements are delivered serially even when the sources emit from different threads, and
  /// `resultSelector` runs in that order. The result completes when every source completed,
  /// or when a source emits after all the others completed while one of them never emitted.
  /// An error from any source, or thrown by `resultSelector`, ends it.
  ///
  /// - Parameters:
  ///   - source1: The first source.
  ///   - source2: The second source.
  ///   - resultSelector: Combines the latest elements.
  /// - Returns: The combined elements.
  @inlinable
  public static func combineLatest<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2,
    resultSelector: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    combine(CombineLatestMode.self, source1, source2, select: resultSelector)
  }

  /// Combines the latest elements of every source in `sources` with `resultSelector`; see
  /// ``combineLatest(_:_:resultSelector:)``. An empty collection emits `resultSelector([])`
  /// and completes, as in RxSwift.
  @inlinable
  public static func combineLatest<Sources: Collection>(
    _ sources: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
  ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
    Observable { observer in
      let mode = CombineLatestMode.self
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

  /// Combines the latest elements of every source in `sources` into arrays; see
  /// ``combineLatest(_:_:resultSelector:)``. An empty collection emits `[]` and completes.
  @inlinable
  public static func combineLatest<Sources: Collection>(_ sources: Sources) -> Observable<[Element]>
  where Sources.Element: ObservableConvertibleType, Sources.Element.Element == Element {
    Observable<[Element]>.combineLatest(sources) { $0 }
  }
}

extension ObservableType where Element == Any {
  /// Combines the latest elements of two sources into tuples; see
  /// ``ObservableType/combineLatest(_:_:resultSelector:)``.
  @inlinable
  public static func combineLatest<O1: ObservableConvertibleType, O2: ObservableConvertibleType>(
    _ source1: O1, _ source2: O2
  ) -> Observable<(O1.Element, O2.Element)> {
    Observable<(O1.Element, O2.Element)>.combineLatest(source1, source2) { ($0, $1) }
  }
}
