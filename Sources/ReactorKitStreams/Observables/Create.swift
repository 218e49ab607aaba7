extension ObservableType {
  /// Creates an observable from a subscribe function.
  ///
  /// The function receives an observer to send events to and returns a disposable that
  /// cleans up. Events after the first terminal event, or after disposal, are dropped; the
  /// returned disposable runs once the sequence terminates or the subscriber disposes.
  /// Send events serially; this operator does not serialise concurrent calls.
  @inlinable
  public static func create(
    _ subscribe: @escaping (AnyObserver<Element>) -> Disposable
  ) -> Observable<Element> {
    Observable { observer in
      let sink = Sink(observer)
      sink.setUpstream(subscribe(AnyObserver { sink.forward($0) }))
      return sink
    }
  }

  /// A sequence of one element, then completion.
  @inlinable
  public static func just(_ element: Element) -> Observable<Element> {
    JustObservable(element)
  }

  /// A sequence of one element, delivered on `scheduler`, then completion.
  @inlinable
  public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<
    Element
  > {
    from([element], scheduler: scheduler)
  }

  /// A sequence that completes at once.
  @inlinable
  public static func empty() -> Observable<Element> {
    EmptyObservable()
  }

  /// A sequence that never sends anything.
  @inlinable
  public static func never() -> Observable<Element> {
    Observable { _ in Disposables.create() }
  }

  /// A sequence that fails at once with `error`.
  @inlinable
  public static func error(_ error: Swift.Error) -> Observable<Element> {
    Observable { observer in
      observer.on(.error(error))
      return Disposables.create()
    }
  }

  /// The given elements, one per step of `scheduler`, then completion.
  ///
  /// The default `CurrentThreadScheduler` trampolines: elements of nested `of` sequences
  /// interleave instead of recursing. Disposing the subscription (`take` being done) stops
  /// the elements at once.
  @inlinable
  public static func of(
    _ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> {
    from(elements, scheduler: scheduler)
  }

  /// The elements of `sequence`, one per step of `scheduler`, then completion.
  ///
  /// The sequence is iterated lazily, anew for each subscription, and only as far as the
  /// subscriber wants: disposing the subscription (`take` being done) stops the iteration
  /// at once, so a lazy or infinite sequence works.
  ///
  /// - Complexity: O(1) to make the observable; each subscription pulls one element per
  ///   element delivered.
  @inlinable
  public static func from<Source: Sequence>(
    _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> where Source.Element == Element {
    SequenceObservable(sequence, scheduler: scheduler)
  }

  /// One element if `optional` is non-nil, then completion.
  @inlinable
  public static func from(
    optional: Element?, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
  ) -> Observable<Element> {
    SequenceObservable(optional.map { [$0] } ?? [], scheduler: scheduler)
  }

  /// Calls `factory` for each subscriber and subscribes to the observable it returns; a
  /// thrown error becomes the sequence's error.
  @inlinable
  public static func deferred(
    _ factory: @escaping () throws -> Observable<Element>
  ) -> Observable<Element> {
    Observable { observer in
      let source: Observable<Element>
      do {
        source = try factory()
      } catch {
        observer.on(.error(error))
        return Disposables.create()
      }
      return source.subscribe(observer)
    }
  }
}
