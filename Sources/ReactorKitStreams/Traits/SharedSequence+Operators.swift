extension SharedSequenceConvertibleType {
  /// Maps each element to a shared sequence and merges their elements.
  ///
  /// The result has the inner sequences' sharing strategy, so a ``Driver`` can map into
  /// ``Signal``s (as in RxCocoa).
  public func flatMap<Sharing: SharingStrategyProtocol, Result>(
    _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
  ) -> SharedSequence<Sharing, Result> {
    SharedSequence(asObservable().flatMap { selector($0).asObservable() })
  }

  /// Maps each element to a shared sequence, ignoring elements while the previous one is
  /// still running.
  ///
  /// The result has the inner sequences' sharing strategy, as for ``flatMap(_:)``.
  public func flatMapFirst<Sharing: SharingStrategyProtocol, Result>(
    _ selector: @escaping (Element) -> SharedSequence<Sharing, Result>
  ) -> SharedSequence<Sharing, Result> {
    SharedSequence(asObservable().flatMapFirst { selector($0).asObservable() })
  }

  /// Drops elements whose key equals the key of the element before them.
  public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) -> Key)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(asObservable().distinctUntilChanged(keySelector))
  }

  /// Drops elements that `comparer` finds equal to the element before them.
  public func distinctUntilChanged(_ comparer: @escaping (Element, Element) -> Bool)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(asObservable().distinctUntilChanged(comparer))
  }

  /// Drops elements whose property at `keyPath` equals that of the element before them.
  public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(asObservable().distinctUntilChanged(at: keyPath))
  }

  /// Emits `elements` first, then the sequence's own.
  public func startWith(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(Observable.concat(Observable.from(elements), asObservable()))
  }

  /// Emits each intermediate result of folding the elements into `seed`.
  public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate
  ) -> SharedSequence<SharingStrategy, Accumulate> {
    SharedSequence(asObservable().scan(seed, accumulator: accumulator))
  }

  /// Runs side effects for the sequence's events.
  public func `do`(
    onNext: ((Element) -> Void)? = nil, afterNext: ((Element) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, afterCompleted: (() -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(
      asObservable().do(
        onNext: onNext, afterNext: afterNext, onCompleted: onCompleted,
        afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed,
        onDispose: onDispose))
  }
}

extension SharedSequence {
  /// Merges the elements of `sources`.
  public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...)
    -> SharedSequence<SharingStrategy, Element>
  {
    SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
  }
}

extension SharedSequenceConvertibleType where Element: Equatable {
  /// Drops elements equal to the one before them.
  public func distinctUntilChanged() -> SharedSequence<SharingStrategy, Element> {
    SharedSequence(asObservable().distinctUntilChanged())
  }
}
