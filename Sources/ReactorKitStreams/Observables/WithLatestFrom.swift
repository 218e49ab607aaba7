extension ObservableType {
  /// Combines each element with the latest element of `second`, using `resultSelector`.
  ///
  /// Elements arriving before `second` emitted anything are dropped. The result completes
  /// when this sequence completes; `second` completing only stops updates of the latest
  /// value. An error from either sequence, or thrown by `resultSelector`, ends the result.
  /// Delivery is serial even when the two sequences emit from different threads.
  ///
  /// - Parameters:
  ///   - second: The sequence whose latest element is used.
  ///   - resultSelector: Combines an element with the latest element of `second`.
  /// - Returns: The combined elements.
  @inlinable
  public func withLatestFrom<Source: ObservableConvertibleType, Result>(
    _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> Result
  ) -> Observable<Result> {
    let first = asObservable()
    return Observable { observer in
      WithLatestFromSink(observer, transform: resultSelector).run(first, second.asObservable())
    }
  }

  /// Replaces each element with the latest element of `second`; see
  /// ``withLatestFrom(_:resultSelector:)``.
  @inlinable
  public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source)
    -> Observable<Source.Element>
  {
    withLatestFrom(second) { $1 }
  }
}

/// Remembers the latest element of the second sequence and pairs each element of the first
/// with it.
@usableFromInline
final class WithLatestFromSink<First, Second, Element>:
  TwoSourceSink<(First, Second), Element, Second?>, @unchecked Sendable
{
  // Safety: `state` (inherited; the latest element of the second sequence) is guarded by
  // `lock`; the disposables synchronise themselves.

  @inlinable
  init(_ observer: AnyObserver<Element>, transform: @escaping (First, Second) throws -> Element) {
    super.init(observer, state: nil) { try transform($0.0, $0.1) }
  }

  @inlinable
  func run(_ first: Observable<First>, _ second: Observable<Second>) -> Disposable {
    run(
      first, second, secondFirst: true, onFirst: { self.firstOn($0) },
      onSecond: { self.secondOn($0) })
  }

  @inlinable
  func firstOn(_ event: Event<First>) {
    lock.lock()
    switch event {
    case .next(let element):
      guard let latest = state else {
        lock.unlock()
        return
      }
      onAndUnlock(.next((element, latest)))
    case .error(let error):
      onAndUnlock(.error(error))
    case .completed:
      onAndUnlock(.completed)
    }
  }

  @inlinable
  func secondOn(_ event: Event<Second>) {
    switch event {
    case .next(let element):
      lock.withLock { state = element }
    case .error(let error):
      on(.error(error))
    case .completed:
      secondSubscription.dispose()
    }
  }
}
