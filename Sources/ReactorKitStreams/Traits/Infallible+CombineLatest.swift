// `combineLatest` of 3 to 8 infallibles (the two-source forms are in `Infallible.swift`).

extension Infallible {
  /// Combines the latest elements of 3 infallibles with `resultSelector` whenever one
  /// emits, once each has emitted; see `combineLatest` on `ObservableType`.
  public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
    _ source1: I1, _ source2: I2, _ source3: I3,
    resultSelector: @escaping (I1.Element, I2.Element, I3.Element) -> Element
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        resultSelector: resultSelector))
  }

  /// The latest elements of 3 infallibles, as tuples.
  public static func combineLatest<I1: InfallibleType, I2: InfallibleType, I3: InfallibleType>(
    _ source1: I1, _ source2: I2, _ source3: I3
  ) -> Infallible<Element> where Element == (I1.Element, I2.Element, I3.Element) {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable()
      ) { ($0, $1, $2) })
  }

  /// Combines the latest elements of 4 infallibles with `resultSelector` whenever one
  /// emits, once each has emitted; see `combineLatest` on `ObservableType`.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4,
    resultSelector: @escaping (I1.Element, I2.Element, I3.Element, I4.Element) -> Element
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), resultSelector: resultSelector))
  }

  /// The latest elements of 4 infallibles, as tuples.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4
  ) -> Infallible<Element> where Element == (I1.Element, I2.Element, I3.Element, I4.Element) {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable()
      ) { ($0, $1, $2, $3) })
  }

  /// Combines the latest elements of 5 infallibles with `resultSelector` whenever one
  /// emits, once each has emitted; see `combineLatest` on `ObservableType`.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5,
    resultSelector:
      @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element) -> Element
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), resultSelector: resultSelector))
  }

  /// The latest elements of 5 infallibles, as tuples.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5
  ) -> Infallible<Element>
  where Element == (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element) {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable()
      ) { ($0, $1, $2, $3, $4) })
  }

  /// Combines the latest elements of 6 infallibles with `resultSelector` whenever one
  /// emits, once each has emitted; see `combineLatest` on `ObservableType`.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType, I6: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
    resultSelector:
      @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element) -> Element
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), source6.asObservable(),
        resultSelector: resultSelector))
  }

  /// The latest elements of 6 infallibles, as tuples.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType, I6: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6
  ) -> Infallible<Element>
  where Element == (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element) {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), source6.asObservable()
      ) { ($0, $1, $2, $3, $4, $5) })
  }

  /// Combines the latest elements of 7 infallibles with `resultSelector` whenever one
  /// emits, once each has emitted; see `combineLatest` on `ObservableType`.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType, I6: InfallibleType, I7: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
    _ source7: I7,
    resultSelector:
      @escaping (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element)
      -> Element
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), source6.asObservable(),
        source7.asObservable(), resultSelector: resultSelector))
  }

  /// The latest elements of 7 infallibles, as tuples.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType, I6: InfallibleType, I7: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
    _ source7: I7
  ) -> Infallible<Element>
  where
    Element == (I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element)
  {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), source6.asObservable(),
        source7.asObservable()
      ) { ($0, $1, $2, $3, $4, $5, $6) })
  }

  /// Combines the latest elements of 8 infallibles with `resultSelector` whenever one
  /// emits, once each has emitted; see `combineLatest` on `ObservableType`.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType, I6: InfallibleType, I7: InfallibleType, I8: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
    _ source7: I7, _ source8: I8,
    resultSelector:
      @escaping (
        I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element,
        I8.Element
      ) -> Element
  ) -> Infallible<Element> {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), source6.asObservable(),
        source7.asObservable(), source8.asObservable(), resultSelector: resultSelector))
  }

  /// The latest elements of 8 infallibles, as tuples.
  public static func combineLatest<
    I1: InfallibleType, I2: InfallibleType, I3: InfallibleType, I4: InfallibleType,
    I5: InfallibleType, I6: InfallibleType, I7: InfallibleType, I8: InfallibleType
  >(
    _ source1: I1, _ source2: I2, _ source3: I3, _ source4: I4, _ source5: I5, _ source6: I6,
    _ source7: I7, _ source8: I8
  ) -> Infallible<Element>
  where
    Element == (
      I1.Element, I2.Element, I3.Element, I4.Element, I5.Element, I6.Element, I7.Element, I8.Element
    )
  {
    Infallible(
      Observable.combineLatest(
        source1.asObservable(), source2.asObservable(), source3.asObservable(),
        source4.asObservable(), source5.asObservable(), source6.asObservable(),
        source7.asObservable(), source8.asObservable()
      ) { ($0, $1, $2, $3, $4, $5, $6, $7) })
  }
}
