// `Maybe.zip` for 2 to 8 sources, as RxSwift's: thin wrappers over the observable arities.

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// The 2 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2>(_ source1: Maybe<E1>, _ source2: Maybe<E2>) -> Maybe<(E1, E2)>
  where Element == (E1, E2) {
    Maybe(raw: Observable.zip(source1.source, source2.source))
  }

  /// The result of `resultSelector` for the 2 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>,
    resultSelector: @escaping (E1, E2) throws -> Element
  ) -> Maybe<Element> {
    Maybe(raw: Observable.zip(source1.source, source2.source, resultSelector: resultSelector))
  }

  /// The 3 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2, E3>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>
  ) -> Maybe<(E1, E2, E3)>
  where Element == (E1, E2, E3) {
    Maybe(raw: Observable.zip(source1.source, source2.source, source3.source))
  }

  /// The result of `resultSelector` for the 3 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2, E3>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>,
    resultSelector: @escaping (E1, E2, E3) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, resultSelector: resultSelector))
  }

  /// The 4 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>
  ) -> Maybe<(E1, E2, E3, E4)>
  where Element == (E1, E2, E3, E4) {
    Maybe(raw: Observable.zip(source1.source, source2.source, source3.source, source4.source))
  }

  /// The result of `resultSelector` for the 4 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    resultSelector: @escaping (E1, E2, E3, E4) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source,
        resultSelector: resultSelector))
  }

  /// The 5 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>
  ) -> Maybe<(E1, E2, E3, E4, E5)>
  where Element == (E1, E2, E3, E4, E5) {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source))
  }

  /// The result of `resultSelector` for the 5 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>,
    resultSelector: @escaping (E1, E2, E3, E4, E5) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        resultSelector: resultSelector))
  }

  /// The 6 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5, E6>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>, _ source6: Maybe<E6>
  ) -> Maybe<(E1, E2, E3, E4, E5, E6)>
  where Element == (E1, E2, E3, E4, E5, E6) {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source))
  }

  /// The result of `resultSelector` for the 6 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5, E6>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>, _ source6: Maybe<E6>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, resultSelector: resultSelector))
  }

  /// The 7 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5, E6, E7>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>, _ source6: Maybe<E6>, _ source7: Maybe<E7>
  ) -> Maybe<(E1, E2, E3, E4, E5, E6, E7)>
  where Element == (E1, E2, E3, E4, E5, E6, E7) {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source))
  }

  /// The result of `resultSelector` for the 7 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5, E6, E7>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>, _ source6: Maybe<E6>, _ source7: Maybe<E7>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source, resultSelector: resultSelector))
  }

  /// The 8 elements as a tuple once every maybe succeeded; completes empty, once all
  /// finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>, _ source6: Maybe<E6>, _ source7: Maybe<E7>, _ source8: Maybe<E8>
  ) -> Maybe<(E1, E2, E3, E4, E5, E6, E7, E8)>
  where Element == (E1, E2, E3, E4, E5, E6, E7, E8) {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source, source8.source))
  }

  /// The result of `resultSelector` for the 8 elements once every maybe succeeded; completes
  /// empty, once all finished, when one completed without an element.
  public static func zip<E1, E2, E3, E4, E5, E6, E7, E8>(
    _ source1: Maybe<E1>, _ source2: Maybe<E2>, _ source3: Maybe<E3>, _ source4: Maybe<E4>,
    _ source5: Maybe<E5>, _ source6: Maybe<E6>, _ source7: Maybe<E7>, _ source8: Maybe<E8>,
    resultSelector: @escaping (E1, E2, E3, E4, E5, E6, E7, E8) throws -> Element
  ) -> Maybe<Element> {
    Maybe(
      raw: Observable.zip(
        source1.source, source2.source, source3.source, source4.source, source5.source,
        source6.source, source7.source, source8.source, resultSelector: resultSelector))
  }
}
