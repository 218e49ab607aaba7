/// A subject that emits only its last element, and only when it completes.
///
/// An error is forwarded without an element. Subscribers after completion receive the last
/// element and the completion at once.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType,
  @unchecked Sendable
{
  // Safety: all state is guarded by `core.lock`.
  @usableFromInline let core = SubjectCore<Element>()
  private var last: Element?

  /// Creates a subject.
  public override init() { super.init() }

  deinit { core.detachObservers() }

  /// Whether any observer is subscribed.
  public var hasObservers: Bool { core.lock.withLock { core.hasObserversLocked } }

  /// Remembers `.next` values; on completion emits the last one, then completes.
  public func on(_ event: Event<Element>) {
    core.lock.lock()
    if core.stopEvent != nil {
      core.lock.unlock()
      return
    }
    switch event {
    case .next(let value):
      last = value
      core.lock.unlock()
    case .error:
      core.publishAndUnlock(event)
    case .completed:
      if let last {
        core.publishTerminalSequenceAndUnlock([.next(last), .completed])
      } else {
        core.publishAndUnlock(.completed)
      }
    }
  }

  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    core.lock.lock()
    if let stop = core.stopEvent {
      let last = self.last
      core.lock.unlock()
      if case .completed = stop, let last { observer.on(.next(last)) }
      observer.on(stop)
      return Disposables.create()
    }
    let entry = core.addLocked(observer)
    core.lock.unlock()
    return entry
  }

  /// The subject as an observer.
  public func asObserver() -> AsyncSubject<Element> { self }
}

extension AsyncSubject: ObserverReleasing {}
