extension ObservableType {
  /// Pairs the elements of two sources by position: the n-th result combines the n-th element
  /// of each source with `resultSelector`.
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
    Observable { observer in
      let sink = ZipSink<(Queue<O1.Element>, Queue<O2.Element>), (O1.Element, O2.Element), Element>(
        observer, arity: 2, buffers: (Queue(), Queue()),
        take: { ($0.0.popFirst()!, $0.1.popFirst()!) }
      ) { try resultSelector($0.0, $0.1) }
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.append($1) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.append($1) } }
      return sink.finishSubscribing()
    }
  }

  /// Pairs the elements of three sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = ZipSink<
        (Queue<O1.Element>, Queue<O2.Element>, Queue<O3.Element>),
        (O1.Element, O2.Element, O3.Element), Element
      >(
        observer, arity: 3, buffers: (Queue(), Queue(), Queue()),
        take: { ($0.0.popFirst()!, $0.1.popFirst()!, $0.2.popFirst()!) }
      ) { try resultSelector($0.0, $0.1, $0.2) }
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.append($1) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.append($1) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.append($1) } }
      return sink.finishSubscribing()
    }
  }

  /// Pairs the elements of four sources by position; see ``zip(_:_:resultSelector:)``.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(
    _ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4,
    resultSelector: @escaping (O1.Element, O2.Element, O3.Element, O4.Element) throws -> Element
  ) -> Observable<Element> {
    Observable { observer in
      let sink = ZipSink<
        (Queue<O1.Element>, Queue<O2.Element>, Queue<O3.Element>, Queue<O4.Element>),
        (O1.Element, O2.Element, O3.Element, O4.Element), Element
      >(
        observer, arity: 4, buffers: (Queue(), Queue(), Queue(), Queue()),
        take: { ($0.0.popFirst()!, $0.1.popFirst()!, $0.2.popFirst()!, $0.3.popFirst()!) }
      ) { try resultSelector($0.0, $0.1, $0.2, $0.3) }
      sink.subscribe(source1, at: 0) { sink.on($0, at: 0) { $0.0.append($1) } }
      sink.subscribe(source2, at: 1) { sink.on($0, at: 1) { $0.1.append($1) } }
      sink.subscribe(source3, at: 2) { sink.on($0, at: 2) { $0.2.append($1) } }
      sink.subscribe(source4, at: 3) { sink.on($0, at: 3) { $0.3.append($1) } }
      return sink.finishSubscribing()
    }
  }

  /// Pairs the elements of every source in `sources` by position and combines them with
  /// `resultSelector`; see ``zip(_:_:resultSelector:)``. An empty collection completes at
  /// once.
  @inlinable
  public static func zip<Sources: Collection>(
    _ sources: Sources,
    resultSelector: @escaping ([Sources.Element.Element]) throws -> Element
  ) -> Observable<Element> where Sources.Element: ObservableConvertibleType {
    Observable { observer in
      let sink = ZipSink<[Queue<Sources.Element.Element>], [Sources.Element.Element], Element>(
        observer, arity: sources.count,
        buffers: Array(repeating: Queue(), count: sources.count),
        take: { buffers in buffers.indices.map { buffers[$0].popFirst()! } },
        transform: resultSelector)
      for (index, source) in sources.enumerated() {
        sink.subscribe(source, at: index) { sink.on($0, at: index) { $0[index].append($1) } }
      }
      return sink.finishSubscribing()
    }
  }

  /// Pairs the elements of every source in `sources` by position into arrays; see
  /// ``zip(_:_:resultSelector:)``.
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

  /// Pairs the elements of three sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3)
    -> Observable<(O1.Element, O2.Element, O3.Element)>
  {
    Observable<(O1.Element, O2.Element, O3.Element)>.zip(source1, source2, source3) {
      ($0, $1, $2)
    }
  }

  /// Pairs the elements of four sources by position into tuples.
  @inlinable
  public static func zip<
    O1: ObservableConvertibleType, O2: ObservableConvertibleType, O3: ObservableConvertibleType,
    O4: ObservableConvertibleType
  >(_ source1: O1, _ source2: O2, _ source3: O3, _ source4: O4)
    -> Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>
  {
    Observable<(O1.Element, O2.Element, O3.Element, O4.Element)>.zip(
      source1, source2, source3, source4
    ) { ($0, $1, $2, $3) }
  }
}

/// The buffered elements of each source (`Buffers`, a tuple or array of queues) and how
/// many each buffer holds.
@usableFromInline
struct ZipState<Buffers> {
  @usableFromInline var buffers: Buffers
  @usableFromInline var counts: [Int]
  @usableFromInline var filled = 0

  @inlinable
  init(buffers: Buffers, arity: Int) {
    self.buffers = buffers
    counts = Array(repeating: 0, count: arity)
  }
}

/// Buffers the elements of each source and emits a `Snapshot` of one element per source
/// whenever every buffer holds one.
@usableFromInline
final class ZipSink<Buffers, Snapshot, Element>:
  MultiSourceSink<Snapshot, Element, ZipState<Buffers>>, @unchecked Sendable
{
  // Safety: all mutable state is the inherited `state`, guarded by `lock`; `take` is
  // immutable and pure (library code, no user code), so it may run under the lock.
  @usableFromInline let take: (inout Buffers) -> Snapshot

  @inlinable
  init(
    _ observer: AnyObserver<Element>, arity: Int, buffers: Buffers,
    take: @escaping (inout Buffers) -> Snapshot,
    transform: @escaping (Snapshot) throws -> Element
  ) {
    self.take = take
    super.init(
      observer, arity: arity, extra: ZipState(buffers: buffers, arity: arity),
      transform: transform)
  }

  @inlinable
  func on<Value>(_ event: Event<Value>, at index: Int, store: (inout Buffers, Value) -> Void) {
    lock.lock()
    if isStoppedLocked {
      lock.unlock()
      return
    }
    switch event {
    case .next(let value):
      store(&state.extra.buffers, value)
      state.extra.counts[index] += 1
      if state.extra.counts[index] == 1 { state.extra.filled += 1 }
      guard state.extra.filled == arity else {
        lock.unlock()
        return
      }
      let snapshot = take(&state.extra.buffers)
      for position in 0..<arity {
        state.extra.counts[position] -= 1
        if state.extra.counts[position] == 0 { state.extra.filled -= 1 }
      }
      onLocked(.next(snapshot))
    case .error(let error):
      onLocked(.error(error))
    case .completed:
      completedLocked(at: index)
    }
  }
}
