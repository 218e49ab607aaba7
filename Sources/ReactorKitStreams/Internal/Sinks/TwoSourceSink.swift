/// A ``FanInSink`` with two sources (`sample`, `withLatestFrom`, `take(until:)` and
/// `skip(until:)`): each source's subscription in its own disposable, both released with the
/// sink. `first` is the sequence the result's elements come from.
@usableFromInline
class TwoSourceSink<Item, Element, State>: FanInSink<Item, Element, State>, @unchecked Sendable {
  // Safety: the disposables synchronise themselves; the rest is the base class's.
  @usableFromInline let firstSubscription = SingleAssignmentDisposable()
  @usableFromInline let secondSubscription = SingleAssignmentDisposable()

  /// Subscribes `onFirst` to `first` and `onSecond` to `second`, `second` first when
  /// `secondFirst`; the later one is not subscribed when the earlier one stopped the sink.
  ///
  /// - Returns: The sink, which ends the subscription.
  @inlinable
  final func run<First, Second>(
    _ first: Observable<First>, _ second: Observable<Second>, secondFirst: Bool,
    onFirst: @escaping (Event<First>) -> Void, onSecond: @escaping (Event<Second>) -> Void
  ) -> Disposable {
    if secondFirst {
      subscribe(second, secondSubscription, onSecond)
      subscribe(first, firstSubscription, onFirst)
    } else {
      subscribe(first, firstSubscription, onFirst)
      subscribe(second, secondSubscription, onSecond)
    }
    return self
  }

  /// Subscribes `handler` to `observable` into `subscription`, unless the sink already stopped.
  @inlinable
  final func subscribe<Value>(
    _ observable: Observable<Value>, _ subscription: SingleAssignmentDisposable,
    _ handler: @escaping (Event<Value>) -> Void
  ) {
    if isStopped {
      subscription.dispose()
    } else {
      subscription.setDisposable(observable.subscribe(AnyObserver(eventHandler: handler)))
    }
  }

  @usableFromInline
  override func releaseSources() {
    firstSubscription.dispose()
    secondSubscription.dispose()
  }
}
