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

  /// Pairs the elements of 3 sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    combine(ZipMode.self, source1, source2, source3, select: resultSelector)
  }

  /// Pairs the elements of 4 sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    combine(ZipMode.self, source1, source2, source3, source4, select: resultSelector)
  }

  /// Pairs the elements of 5 sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
  ) -> Observable<Element> {
    combine(ZipMode.self, source1, source2, source3, source4, source5, select: resultSelector)
  }

  /// Pairs the elements of 6 sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws ->
      Element
  ) -> Observable<Element> {
    combine(
      ZipMode.self, source1, source2, source3, source4, source5, source6, select: resultSelector)
  }

  /// Pairs the elements of 7 sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
      throws -> Element
  ) -> Observable<Element> {
    combine(
      ZipMode.self, source1, source2, source3, source4, source5, source6, source7,
      select: resultSelector)
  }

  /// Pairs the elements of 8 sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7, _ source8: O8,
    resultSelector:
      @escaping (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      ) throws -> Element
  ) -> Observable<Element> {
    combine(
      ZipMode.self, source1, source2, source3, source4, source5, source6, source7, source8,
      select: resultSelector)
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

  /// Pairs the elements of 3 sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3
  ) -> Observable<(O1.Element, O2.Element, O3.Element)> {
    Observable<(O1.Element, O2.Element, O3.Element)>.zip(source1, source2, source3) { ($0, $1, $2) }
  }

  /// Pairs the elements of 4 sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)> {
    Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>.zip(
      source1, source2, source3, source4
    ) { ($0, $1, $2, $3) }
  }

  /// Pairs the elements of 5 sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)> {
    Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>.zip(
      source1, source2, source3, source4, source5
    ) { ($0, $1, $2, $3, $4) }
  }

  /// Pairs the elements of 6 sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6
  ) -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)> {
    Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)>.zip(
      source1, source2, source3, source4, source5, source6
    ) { ($0, $1, $2, $3, $4, $5) }
  }

  /// Pairs the elements of 7 sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7
  ) -> Observable<
    (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
  > {
    Observable<(O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)>
      .zip(source1, source2, source3, source4, source5, source6, source7) {
        ($0, $1, $2, $3, $4, $5, $6)
      }
  }

  /// Pairs the elements of 8 sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7, _ source8: O8
  ) -> Observable<
    (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element, O8.Element)
  > {
    Observable<
      (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      )
    >.zip(source1, source2, source3, source4, source5, source6, source7, source8) {
      ($0, $1, $2, $3, $4, $5, $6, $7)
    }
  }
}
