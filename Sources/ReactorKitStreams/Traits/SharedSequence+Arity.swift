// The fixed arities 4 to 8 of `Driver`/`Signal` `zip` and `combineLatest`, as RxCocoa's
// `SharedSequence.zip(_:_:...)`: thin wrappers over the observable arities, which share one
// core (`Combine+Arity.swift`). Arities 2 and 3 live in `SharedSequence+Combining.swift`.

extension SharedSequence {
  /// Pairs the elements of 4 sequences by position and combines them with `resultSelector`.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.zip(source1, source2, source3, source4, resultSelector: resultSelector))
  }

  /// Pairs the elements of 5 sequences by position and combines them with `resultSelector`.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.zip(source1, source2, source3, source4, source5, resultSelector: resultSelector))
  }

  /// Pairs the elements of 6 sequences by position and combines them with `resultSelector`.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.zip(
        source1, source2, source3, source4, source5, source6, resultSelector: resultSelector))
  }

  /// Pairs the elements of 7 sequences by position and combines them with `resultSelector`.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
      -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy,
    O7.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.zip(
        source1, source2, source3, source4, source5, source6, source7,
        resultSelector: resultSelector))
  }

  /// Pairs the elements of 8 sequences by position and combines them with `resultSelector`.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7, _ source8: O8,
    resultSelector:
      @escaping (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      ) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy,
    O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.zip(
        source1, source2, source3, source4, source5, source6, source7, source8,
        resultSelector: resultSelector))
  }

  /// Combines the latest elements of 4 sequences and combines them with `resultSelector`.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.combineLatest(source1, source2, source3, source4, resultSelector: resultSelector))
  }

  /// Combines the latest elements of 5 sequences and combines them with `resultSelector`.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.combineLatest(
        source1, source2, source3, source4, source5, resultSelector: resultSelector))
  }

  /// Combines the latest elements of 6 sequences and combines them with `resultSelector`.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.combineLatest(
        source1, source2, source3, source4, source5, source6, resultSelector: resultSelector))
  }

  /// Combines the latest elements of 7 sequences and combines them with `resultSelector`.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7,
    resultSelector:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
      -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy,
    O7.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.combineLatest(
        source1, source2, source3, source4, source5, source6, source7,
        resultSelector: resultSelector))
  }

  /// Combines the latest elements of 8 sequences and combines them with `resultSelector`.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7, _ source8: O8,
    resultSelector:
      @escaping (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      ) -> Element
  ) -> SharedSequence<SharingStrategy, Element>
  where
    O1.SharingStrategy == SharingStrategy, O2.SharingStrategy == SharingStrategy,
    O3.SharingStrategy == SharingStrategy, O4.SharingStrategy == SharingStrategy,
    O5.SharingStrategy == SharingStrategy, O6.SharingStrategy == SharingStrategy,
    O7.SharingStrategy == SharingStrategy, O8.SharingStrategy == SharingStrategy
  {
    SharedSequence(
      Observable.combineLatest(
        source1, source2, source3, source4, source5, source6, source7, source8,
        resultSelector: resultSelector))
  }
}

extension SharedSequence where Element == Any {
  /// Pairs the elements of 4 sequences by position into tuples.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4)
    -> SharedSequence<O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy
  {
    SharedSequence<O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>.zip(
      source1, source2, source3, source4
    ) { ($0, $1, $2, $3) }
  }

  /// Pairs the elements of 5 sequences by position into tuples.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5)
    -> SharedSequence<
      O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy
  {
    SharedSequence<O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>
      .zip(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
  }

  /// Pairs the elements of 6 sequences by position into tuples.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6)
    -> SharedSequence<
      O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy,
    O1.SharingStrategy == O6.SharingStrategy
  {
    SharedSequence<
      O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)
    >.zip(source1, source2, source3, source4, source5, source6) { ($0, $1, $2, $3, $4, $5) }
  }

  /// Pairs the elements of 7 sequences by position into tuples.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7
  )
    -> SharedSequence<
      O1.SharingStrategy,
      (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy,
    O1.SharingStrategy == O6.SharingStrategy, O1.SharingStrategy == O7.SharingStrategy
  {
    SharedSequence<
      O1.SharingStrategy,
      (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
    >.zip(source1, source2, source3, source4, source5, source6, source7) {
      ($0, $1, $2, $3, $4, $5, $6)
    }
  }

  /// Pairs the elements of 8 sequences by position into tuples.
  public static func zip<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7, _ source8: O8
  )
    -> SharedSequence<
      O1.SharingStrategy,
      (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      )
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy,
    O1.SharingStrategy == O6.SharingStrategy, O1.SharingStrategy == O7.SharingStrategy,
    O1.SharingStrategy == O8.SharingStrategy
  {
    SharedSequence<
      O1.SharingStrategy,
      (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      )
    >.zip(source1, source2, source3, source4, source5, source6, source7, source8) {
      ($0, $1, $2, $3, $4, $5, $6, $7)
    }
  }

  /// Combines the latest elements of 4 sequences into tuples.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4)
    -> SharedSequence<O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy
  {
    SharedSequence<O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element)>
      .combineLatest(source1, source2, source3, source4) { ($0, $1, $2, $3) }
  }

  /// Combines the latest elements of 5 sequences into tuples.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5)
    -> SharedSequence<
      O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy
  {
    SharedSequence<O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element)>
      .combineLatest(source1, source2, source3, source4, source5) { ($0, $1, $2, $3, $4) }
  }

  /// Combines the latest elements of 6 sequences into tuples.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6)
    -> SharedSequence<
      O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy,
    O1.SharingStrategy == O6.SharingStrategy
  {
    SharedSequence<
      O1.SharingStrategy, (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element)
    >.combineLatest(source1, source2, source3, source4, source5, source6) {
      ($0, $1, $2, $3, $4, $5)
    }
  }

  /// Combines the latest elements of 7 sequences into tuples.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7
  )
    -> SharedSequence<
      O1.SharingStrategy,
      (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy,
    O1.SharingStrategy == O6.SharingStrategy, O1.SharingStrategy == O7.SharingStrategy
  {
    SharedSequence<
      O1.SharingStrategy,
      (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
    >.combineLatest(source1, source2, source3, source4, source5, source6, source7) {
      ($0, $1, $2, $3, $4, $5, $6)
    }
  }

  /// Combines the latest elements of 8 sequences into tuples.
  public static func combineLatest<
    O1: SharedSequenceConvertibleType, O2: SharedSequenceConvertibleType,
    O3: SharedSequenceConvertibleType, O4: SharedSequenceConvertibleType,
    O5: SharedSequenceConvertibleType, O6: SharedSequenceConvertibleType,
    O7: SharedSequenceConvertibleType, O8: SharedSequenceConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5, _ source6: O6,
    _ source7: O7, _ source8: O8
  )
    -> SharedSequence<
      O1.SharingStrategy,
      (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      )
    >
  where
    O1.SharingStrategy == O2.SharingStrategy, O1.SharingStrategy == O3.SharingStrategy,
    O1.SharingStrategy == O4.SharingStrategy, O1.SharingStrategy == O5.SharingStrategy,
    O1.SharingStrategy == O6.SharingStrategy, O1.SharingStrategy == O7.SharingStrategy,
    O1.SharingStrategy == O8.SharingStrategy
  {
    SharedSequence<
      O1.SharingStrategy,
      (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      )
    >.combineLatest(source1, source2, source3, source4, source5, source6, source7, source8) {
      ($0, $1, $2, $3, $4, $5, $6, $7)
    }
  }
}
