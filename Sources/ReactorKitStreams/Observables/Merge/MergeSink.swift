/// The per-subscription storage of the merge family: it runs the selector, starts inner
/// sequences and performs what ``MergeStateMachine`` decides, outside the lock. Events of
/// concurrent inners reach the observer serially through ``FanInSink``.
///
/// An inner whose elements are known up front (`just`, `empty`, `of`/`from` on an idle
/// `CurrentThreadScheduler`) is not subscribed: when its turn comes, its elements go through
/// the same lock and delivery queue as any inner's, then it counts as completed.
@usableFromInline
final class MergeSink<SourceElement, Inner: ObservableConvertibleType>:
  FanInSink<Inner.Element, Inner.Element, MergeStateMachine<Inner>>, @unchecked Sendable
{
  // Safety: `state` (inherited) is guarded by `lock`; `selector` is immutable and called only
  // from the outer sequence's serial events; `outer` synchronises itself.
  @usableFromInline typealias Element = Inner.Element

  @usableFromInline let selector: (SourceElement) throws -> Inner
  @usableFromInline let outer = SingleAssignmentDisposable()
  /// Whether an outer element is checked, under the lock, before the selector runs, as
  /// RxSwift does for these operators: ``MergeStateMachine/Strategy/first`` (which drops
  /// elements while an inner runs, so the selector runs only for elements that are used) and a
  /// limited ``MergeStateMachine/Strategy/concurrent(maxConcurrent:)`` (`concatMap`,
  /// `merge(maxConcurrent:)`), which map nothing once the sequence has stopped. `flatMap`,
  /// `flatMapLatest` and `merge` take the lock once, after the selector, so, as in RxSwift,
  /// their selector also runs for an element that arrives after the sequence stopped (an outer
  /// that keeps emitting synchronously after an inner failed); what it returns is dropped.
  /// Kept apart from the machine's strategy, which is read only under the lock.
  @usableFromInline let reservesBeforeSelecting: Bool

  @inlinable
  init(
    _ observer: AnyObserver<Element>, strategy: MergeStateMachine<Inner>.Strategy,
    selector: @escaping (SourceElement) throws -> Inner
  ) {
    self.selector = selector
    switch strategy {
    case .first: reservesBeforeSelecting = true
    case .concurrent(let maxConcurrent): reservesBeforeSelecting = maxConcurrent != .max
    case .latest: reservesBeforeSelecting = false
    }
    super.init(observer, state: MergeStateMachine(strategy: strategy), transform: { $0 })
  }

  /// Subscribes to the outer sequence and returns the subscription's disposable.
  @inlinable
  func run<Source: ObservableType>(_ source: Source) -> Disposable
  where Source.Element == SourceElement {
    outer.setDisposable(source.subscribe(AnyObserver { self.outerOn($0) }))
    return self
  }

  /// Feeds `sources` as the outer sequence, synchronously, then completes it.
  @inlinable
  func run<Sources: Sequence>(elements sources: Sources) -> Disposable
  where Sources.Element == SourceElement {
    for source in sources {
      guard outerNext(source) else { return self }
    }
    outerOn(.completed)
    return self
  }

  @inlinable
  func outerOn(_ event: Event<SourceElement>) {
    switch event {
    case .next(let element):
      outerNext(element)
    case .error(let error):
      on(.error(error))
    case .completed:
      lock.lock()
      if state.outerDidComplete() {
        onAndUnlock(.completed)
      } else {
        lock.unlock()
      }
      outer.dispose()
    }
  }

  /// Maps an outer element to an inner and starts it, or queues it.
  ///
  /// - Returns: `false` once the sequence has stopped (no further element is wanted).
  @inlinable
  @discardableResult
  func outerNext(_ element: SourceElement) -> Bool {
    if reservesBeforeSelecting {
      lock.lock()
      let stopped = isStoppedLocked
      let wanted = !stopped && state.outerElementArrived()
      lock.unlock()
      // A dropped element (`flatMapFirst` while an inner runs) leaves the sequence going.
      guard wanted else { return !stopped }
    }
    let inner: Inner
    do {
      inner = try selector(element)
    } catch {
      on(.error(error))
      return false
    }
    var replaced: Disposable?
    lock.lock()
    if isStoppedLocked {
      lock.unlock()
      return false
    }
    let id = state.innerArrived(inner, replaced: &replaced)
    lock.unlock()
    replaced?.dispose()
    if let id { start(inner, id: id) }
    return true
  }

  @inlinable
  func innerOn(_ event: Event<Element>, id: UInt64) {
    lock.lock()
    switch event {
    case .next, .error:
      if state.isCurrent(id) {
        onAndUnlock(event)
      } else {
        lock.unlock()
      }
    case .completed:
      let step = state.innerCompleted(id: id)
      if step.complete {
        onAndUnlock(.completed)
      } else {
        lock.unlock()
      }
      perform(step)
    }
  }

  /// Disposes what `step` releases and starts the inner it names, if any.
  @inlinable
  func perform(_ step: MergeStateMachine<Inner>.Step) {
    step.dispose?.dispose()
    if let (id, inner) = step.subscribe { start(inner, id: id) }
  }

  /// Starts inner `id`, then each inner the state machine hands over next, until none is left
  /// to start.
  @inlinable
  func start(_ inner: Inner, id: UInt64) {
    var next: (id: UInt64, inner: Inner)? = (id, inner)
    while let (id, inner) = next {
      let source = inner.asObservable()
      if deliverSynchronously(source, id: id) {
        lock.lock()
        let finished = state.synchronousInnerFinished(id: id)
        if finished.complete { onAndUnlock(.completed) } else { lock.unlock() }
        next = finished.next
      } else {
        let disposable = source.subscribe(AnyObserver { event in self.innerOn(event, id: id) })
        lock.lock()
        let after = state.subscribeReturned(id: id, disposable: disposable)
        lock.unlock()
        after.dispose?.dispose()
        next = after.subscribe
      }
    }
  }

  /// Delivers the elements of inner `id` like ``innerOn(_:id:)`` would, if they are known up
  /// front; stops early once they are no longer wanted.
  ///
  /// - Returns: Whether `source` was synchronous; if not, nothing was delivered.
  @inlinable
  func deliverSynchronously(_ source: Observable<Element>, id: UInt64) -> Bool {
    source.forEachSynchronousElement(
      respectingTrampoline: true,
      while: {
        // Pull no further element once the sequence ended (a `take` downstream is done).
        lock.lock()
        let wanted = !isStoppedLocked && state.isCurrent(id)
        lock.unlock()
        return wanted
      },
      { element in
        lock.lock()
        if isStoppedLocked || !state.isCurrent(id) {
          lock.unlock()
          return
        }
        onAndUnlock(.next(element))
      })
  }

  @usableFromInline
  override func releaseSources() {
    outer.dispose()
    lock.lock()
    let inners = state.terminate()
    lock.unlock()
    for inner in inners { inner.dispose() }
  }
}
