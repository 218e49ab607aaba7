extension ObservableType {
  /// Combines the latest elements of two sources with `resultSelector` whenever either emits,
  /// once each has emitted at least once.
  ///
  /// Elements are delivered serially even when the sources emit from different threads, and
  /// `resultSelector` runs in that order. The result completes when every source completed,
  /// or when a source emits after all the others completed without some source ever having
  /// emitted. An error from any source, or thrown by `resultSelector`, ends it.
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
    Observable { observer in
      let sink = CombineLatestSink<(O1.Element?, O2.Element?), Element>(
        observer, arity: 2, values: (nil, nil)
      ) { try resultSelector($0.0!, $0.1!) }
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0 = $1 } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1 = $1 } }
      return sink.finishSubscribing()
    }
  }

  /// Combines the latest elements of three sources; see
  /// ``combineLatest(_:_:resultSelector:)``.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineLatestSink<(O1.Element?, O2.Element?, O3.Element?), Element>(
        observer, arity: 3, values: (nil, nil, nil)
      ) { try resultSelector($0.0!, $0.1!, $0.2!) }
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0 = $1 } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1 = $1 } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2 = $1 } }
      return sink.finishSubscribing()
    }
  }

  /// Combines the latest elements of four sources; see
  /// ``combineLatest(_:_:resultSelector:)``.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = CombineLatestSink<
        (O1.Element?, O2.Element?, O3.Element?, O4.Element?), Element
      >(observer, arity: 4, values: (nil, nil, nil, nil)) {
        try resultSelector($0.0!, $0.1!, $0.2!, $0.3!)
      }
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0 = $1 } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1 = $1 } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2 = $1 } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3 = $1 } }
      return sink.finishSubscribing()
    }
  }

  /// Combines the latest elements of every source in `sources` with `resultSelector`; see
  /// ``combineLatest(_:_:resultSelector:)``. An empty collection completes at once.
  @inlinable
  public static func combineLatest<Sources: Collection>(
    _ sources: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
  ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
    Observable { observer in
      let sink = CombineLatestSink<[Sources.Element.Element?], Element>(
        observer, arity: sources.count,
        values: Array(repeating: nil, count: sources.count)
      ) { try resultSelector($0.map { $0! }) }
      for (index, source) in sources.enumerated() {
        sink.subscribe(source, at: index) { sink.on($0, at: index) { $0[index] = $1 } }
      }
      return sink.finishSubscribing()
    }
  }

  /// Combines the latest elements of every source in `sources` into arrays; see
  /// ``combineLatest(_:_:resultSelector:)``.
  @inlinable
  public static func combineLatest<Sources: Collection>(_ sources: Sources)
    -> Observable<[Element]>
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

  /// Combines the latest elements of three sources into tuples.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3)
    -> Observable<(O1.Element, O2.Element, O3.Element)>
  {
    Observable<(O1.Element, O2.Element, O3.Element)>.combineLatest(source1, source2, source3) {
      ($0, $1, $2)
    }
  }

  /// Combines the latest elements of four sources into tuples.
  @inlinable
  public static func combineLatest<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4)
    -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>
  {
    Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>.combineLatest(
      source1, source2, source3, source4
    ) { ($0, $1, $2, $3) }
  }
}

/// The latest element of each source (`Values`, a tuple or array of optionals) and which
/// sources have one.
@usableFromInline
struct CombineLatestState<Values> {
  @usableFromInline var values: Values
  @usableFromInline var hasValue: [Bool]
  @usableFromInline var valueCount = 0

  @inlinable
  init(values: Values, arity: Int) {
    self.values = values
    hasValue = Array(repeating: false, count: arity)
  }
}

/// Keeps the latest element of each source and emits a snapshot whenever a source emits
/// once all have a value.
@usableFromInline
final class CombineLatestSink<Values, Element>:
  MultiSourceSink<Values, Element, CombineLatestState<Values>>, @unchecked Sendable
{
  // Safety: all mutable state is the inherited `state`, guarded by `lock`.
  @inlinable
  init(
    _ observer: AnyObserver<Element>, arity: Int, values: Values,
    transform: @escaping (Values) throws -> Element
  ) {
    super.init(
      observer, arity: arity, extra: CombineLatestState(values: values, arity: arity),
      transform: transform)
  }

  @inlinable
  func on<Value>(_ event: Event<Value>, at index: Int, store: (inout Values, Value) -> Void) {
    lock.lock()
    if isStoppedLocked {
      lock.unlock()
      return
    }
    switch event {
    case .next(let value):
      store(&state.extra.values, value)
      if !state.extra.hasValue[index] {
        state.extra.hasValue[index] = true
        state.extra.valueCount += 1
      }
      if state.extra.valueCount == arity {
        onLocked(.next(state.extra.values))
      } else if state.doneCount - (state.isDone[index] ? 1 : 0) == arity - 1 {
        // Every other source completed, and one of them never emitted.
        onLocked(.completed)
      } else {
        lock.unlock()
      }
    case .error(let error):
      onLocked(.error(error))
    case .completed:
      completedLocked(at: index)
    }
  }
}
