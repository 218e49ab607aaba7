// The fixed arities of `combineLatest` and `zip` (2 to 8 sources): one function per arity,
// shared by both operators, that spells the slots and the snapshot as tuples for
// `CombineSink`. Everything else (pairing, completion, serial delivery) is the sink's.

extension ObservableType {
  /// Combines 2 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode, O1: ObservableConvertibleType, O2: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2,
    select: @escaping (O1.Element, O2.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 2, slots: (CombineSlot<O1.Element>(), CombineSlot<O2.Element>()),
        take: { ($0.0.take(mode), $0.1.take(mode)) },
        select: { try select($0.0, $0.1) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }

  /// Combines 3 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode,
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2, _ source3: O3,
    select: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 3,
        slots: (CombineSlot<O1.Element>(), CombineSlot<O2.Element>(), CombineSlot<O3.Element>()),
        take: { ($0.0.take(mode), $0.1.take(mode), $0.2.take(mode)) },
        select: { try select($0.0, $0.1, $0.2) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }

  /// Combines 4 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode,
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    select: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 4,
        slots: (
          CombineSlot<O1.Element>(), CombineSlot<O2.Element>(), CombineSlot<O3.Element>(),
          CombineSlot<O4.Element>()
        ),
        take: { ($0.0.take(mode), $0.1.take(mode), $0.2.take(mode), $0.3.take(mode)) },
        select: { try select($0.0, $0.1, $0.2, $0.3) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.put($1, mode) } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }

  /// Combines 5 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode,
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    select: @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 5,
        slots: (
          CombineSlot<O1.Element>(), CombineSlot<O2.Element>(), CombineSlot<O3.Element>(),
          CombineSlot<O4.Element>(), CombineSlot<O5.Element>()
        ),
        take: {
          ($0.0.take(mode), $0.1.take(mode), $0.2.take(mode), $0.3.take(mode), $0.4.take(mode))
        },
        select: { try select($0.0, $0.1, $0.2, $0.3, $0.4) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.put($1, mode) } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3.put($1, mode) } }
      sink.subscribe(source5, at: 4) { sink.on($0, at: 4) { $0.4.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }

  /// Combines 6 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode,
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    _ source6: O6,
    select:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element) throws ->
      Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 6,
        slots: (
          CombineSlot<O1.Element>(), CombineSlot<O2.Element>(), CombineSlot<O3.Element>(),
          CombineSlot<O4.Element>(), CombineSlot<O5.Element>(), CombineSlot<O6.Element>()
        ),
        take: {
          (
            $0.0.take(mode), $0.1.take(mode), $0.2.take(mode), $0.3.take(mode), $0.4.take(mode),
            $0.5.take(mode)
          )
        },
        select: { try select($0.0, $0.1, $0.2, $0.3, $0.4, $0.5) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.put($1, mode) } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3.put($1, mode) } }
      sink.subscribe(source5, at: 4) { sink.on($0, at: 4) { $0.4.put($1, mode) } }
      sink.subscribe(source6, at: 5) { sink.on($0, at: 5) { $0.5.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }

  /// Combines 7 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode,
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    _ source6: O6, _ source7: O7,
    select:
      @escaping (O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element)
      throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 7,
        slots: (
          CombineSlot<O1.Element>(), CombineSlot<O2.Element>(), CombineSlot<O3.Element>(),
          CombineSlot<O4.Element>(), CombineSlot<O5.Element>(), CombineSlot<O6.Element>(),
          CombineSlot<O7.Element>()
        ),
        take: {
          (
            $0.0.take(mode), $0.1.take(mode), $0.2.take(mode), $0.3.take(mode), $0.4.take(mode),
            $0.5.take(mode), $0.6.take(mode)
          )
        },
        select: { try select($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.put($1, mode) } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3.put($1, mode) } }
      sink.subscribe(source5, at: 4) { sink.on($0, at: 4) { $0.4.put($1, mode) } }
      sink.subscribe(source6, at: 5) { sink.on($0, at: 5) { $0.5.put($1, mode) } }
      sink.subscribe(source7, at: 6) { sink.on($0, at: 6) { $0.6.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }

  /// Combines 8 sources through a ``CombineSink`` in `mode`.
  @inlinable
  static func combine<
    Mode: CombineMode,
    O1: ObservableConvertibleType, O2: ObservableConvertibleType,
    O3: ObservableConvertibleType, O4: ObservableConvertibleType,
    O5: ObservableConvertibleType, O6: ObservableConvertibleType,
    O7: ObservableConvertibleType, O8: ObservableConvertibleType
  >(
    _ mode: Mode.Type, _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4, _ source5: O5,
    _ source6: O6, _ source7: O7, _ source8: O8,
    select:
      @escaping (
        O1.Element, O2.Element, O3.Element, O4.Element, O5.Element, O6.Element, O7.Element,
        O8.Element
      ) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineSink(
        observer, mode, arity: 8,
        slots: (
          CombineSlot<O1.Element>(), CombineSlot<O2.Element>(), CombineSlot<O3.Element>(),
          CombineSlot<O4.Element>(), CombineSlot<O5.Element>(), CombineSlot<O6.Element>(),
          CombineSlot<O7.Element>(), CombineSlot<O8.Element>()
        ),
        take: {
          (
            $0.0.take(mode), $0.1.take(mode), $0.2.take(mode), $0.3.take(mode), $0.4.take(mode),
            $0.5.take(mode), $0.6.take(mode), $0.7.take(mode)
          )
        },
        select: { try select($0.0, $0.1, $0.2, $0.3, $0.4, $0.5, $0.6, $0.7) })
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.put($1, mode) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.put($1, mode) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.put($1, mode) } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3.put($1, mode) } }
      sink.subscribe(source5, at: 4) { sink.on($0, at: 4) { $0.4.put($1, mode) } }
      sink.subscribe(source6, at: 5) { sink.on($0, at: 5) { $0.5.put($1, mode) } }
      sink.subscribe(source7, at: 6) { sink.on($0, at: 6) { $0.6.put($1, mode) } }
      sink.subscribe(source8, at: 7) { sink.on($0, at: 7) { $0.7.put($1, mode) } }
      return sink.finishSubscribingCombined()
    }
  }
}
