/// The lock-guarded state of a ``MultiSourceSink``: which sources completed, and the
/// operator's own state (`extra`).
@usableFromInline
struct MultiSourceState<Extra> {
  @usableFromInline var isDone: [Bool]
  @usableFromInline var doneCount = 0
  @usableFromInline var extra: Extra

  @inlinable
  init(arity: Int, extra: Extra) {
    isDone = Array(repeating: false, count: arity)
    self.extra = extra
  }
}

/// A ``FanInSink`` over a fixed number of sources (combineLatest, zip): it owns one
/// subscription per source and tracks which sources completed.
@usableFromInline
class MultiSourceSink<Item, Element, Extra>:
  FanInSink<Item, Element, MultiSourceState<Extra>>, @unchecked Sendable
{
  // Safety: `state` (inherited) is guarded by `lock`; `subscriptions` is immutable and its
  // elements synchronise themselves.
  @usableFromInline let subscriptions: [SingleAssignmentDisposable]

  @inlinable
  init(
    _ observer: AnyObserver<Element>, arity: Int, extra: Extra,
    transform: @escaping (Item) throws -> Element
  ) {
    subscriptions = (0..<arity).map { _ in SingleAssignmentDisposable() }
    super.init(
      observer, state: MultiSourceState(arity: arity, extra: extra), transform: transform)
  }

  /// The number of sources.
  @inlinable
  final var arity: Int { subscriptions.count }

  /// Subscribes `handler` to `source` as source number `index`, unless the sink already
  /// stopped (then the source is not subscribed at all).
  @inlinable
  final func subscribe<Source: ObservableConvertibleType>(
    _ source: Source, at index: Int, _ handler: @escaping (Event<Source.Element>) -> Void
  ) {
    if isStopped {
      subscriptions[index].dispose()
      return
    }
    subscriptions[index].setDisposable(
      source.asObservable().subscribe(AnyObserver(eventHandler: handler)))
  }

  /// Completes the result when there are no sources; returns `self` as the disposable.
  @inlinable
  final func finishSubscribing() -> Disposable {
    if arity == 0 { on(.completed) }
    return self
  }

  /// Records that source `index` completed: the result completes when every source did,
  /// otherwise only that source's subscription is released. Call with the lock held; the
  /// lock is released on return.
  @inlinable
  final func completedAndUnlock(at index: Int) {
    if state.isDone[index] {
      lock.unlock()
      return
    }
    state.isDone[index] = true
    state.doneCount += 1
    if state.doneCount == arity {
      onAndUnlock(.completed)
    } else {
      lock.unlock()
      subscriptions[index].dispose()
    }
  }

  @usableFromInline
  override func releaseSources() {
    for subscription in subscriptions { subscription.dispose() }
  }
}
