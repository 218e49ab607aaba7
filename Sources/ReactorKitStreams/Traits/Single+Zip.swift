// `Single.zip` for 4 to 8 sources, as RxSwift's (2, 3 and collections are in Single.swift):
// thin wrappers over the observable arities.

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// The 4 elements as a tuple once every single succeeded; the first error otherwise.
  public static func zip<E1, E2, E3, E4>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>
  ) -> Single<(E1, E2, E3, E4)>
  where Element == (E1, E2, E3, E4) {
    Single(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source))
  }

  /// The result of `resultSelector` for the 4 elements once every single succeeded; the
  /// first error otherwise.
  public static func zip<E1, E2, E3, E4>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source,
        resultSelector: resultSelector))
  }

  /// The 5 elements as a tuple once every single succeeded; the first error otherwise.
  public static func zip<E1, E2, E3, E4, E5>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>
  ) -> Single<(E1, E2, E3, E4, E5)>
  where Element == (E1, E2, E3, E4, E5) {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source))
  }

  /// The result of `resultSelector` for the 5 elements once every single succeeded; the
  /// first error otherwise.
  public static func zip<E1, E2, E3, E4, E5>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>,
    resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        resultSelector: resultSelector))
  }

  /// The 6 elements as a tuple once every single succeeded; the first error otherwise.
  public static func zip<E1, E2, E3, E4, E5, E6>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>, _ source6: Single<E6>
  ) -> Single<(E1, E2, E3, E4, E5, E6)>
  where Element == (E1, E2, E3, E4, E5, E6) {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source))
  }

  /// The result of `resultSelector` for the 6 elements once every single succeeded; the
  /// first error otherwise.
  public static func zip<E1, E2, E3, E4, E5, E6>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>, _ source6: Single<E6>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, resultSelector: resultSelector))
  }

  /// The 7 elements as a tuple once every single succeeded; the first error otherwise.
  public static func zip<E1, E2, E3, E4, E5, E6, E7>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>, _ source6: Single<E6>, _ source7: Single<E7>
  ) -> Single<(E1, E2, E3, E4, E5, E6, E7)>
  where Element == (E1, E2, E3, E4, E5, E6, E7) {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source))
  }

  /// The result of `resultSelector` for the 7 elements once every single succeeded; the
  /// first error otherwise.
  public static func zip<E1, E2, E3, E4, E5, E6, E7>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>, _ source6: Single<E6>, _ source7: Single<E7>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source, resultSelector: resultSelector))
  }

  /// The 8 elements as a tuple once every single succeeded; the first error otherwise.
  public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>, _ source6: Single<E6>, _ source7: Single<E7>, _ source8: Single<E8>
  ) -> Single<(E1, E2, E3, E4, E5, E6, E7, E8)>
  where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source, source8.source))
  }

  /// The result of `resultSelector` for the 8 elements once every single succeeded; the
  /// first error otherwise.
  public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
    _ source1: Single<E1>, _ source2: Single<E2>, _ source3: Single<E3>, _ source4: Single<E4>,
    _ source5: Single<E5>, _ source6: Single<E6>, _ source7: Single<E7>, _ source8: Single<E8>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source, source8.source, resultSelector: resultSelector))
  }
}

extension PrimitiveSequenceType where Trait == SingleTrait {
  /// The result of `resultSelector` for the elements of all `sources`, in order, once every
  /// single succeeded; the first error otherwise. No sources give `resultSelector([])`.
  ///
  /// - Parameters:
  ///   - sources: The singles to run at the same time.
  ///   - resultSelector: Combines their elements; an error it throws fails the result.
  /// - Returns: A single of the combined result.
  public static func zip<Sources: Collection, Wrapped>(
    _ sources: Sources, resultSelector: @escaping ([Wrapped]) throws -> Element
  ) -> Single<Element> where Sources.Element == Single<Wrapped> {
    if sources.isEmpty {
      return Single.deferred { Single.just(try resultSelector([])) }
    }
    return Single(raw: Observable.zip(sources.map(\.source), resultSelector: resultSelector))
  }
}
