/// A subject that broadcasts each event to the observers subscribed at that moment.
///
/// Thread-safe: `on` may be called from any thread; each observer still receives events
/// serially and in the order the subject accepted them. After a terminal event new
/// subscribers receive that terminal event at once.
///
/// A call to `on` while another thread delivers queues the event and returns; the delivering
/// thread delivers the queue, releasing each event once delivered. After 1,024 queued events,
/// while more keep arriving, it hands the queue over: the next thread that calls `on` waits
/// for the event being delivered (at most 100 ms) and takes over delivery, and the first
/// thread returns. Reentrant calls from an observer are queued, never nested.
///
/// Freeing or disposing the subject without a terminal event releases its subscriptions,
/// with the operator chains built on it, even when their disposables were dropped.
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable, @unchecked Sendable
{
  // Safety: all state lives in `core`, guarded by its lock and its gate.
  @usableFromInline let core = SubjectCore<Element>(lockFreeNext: true)

  /// Creates a subject.
  @inlinable
  public override init() { super.init() }

  deinit { core.detachObservers() }

  /// Whether any observer is subscribed.
  public var hasObservers: Bool { core.lock.withLock { core.hasObserversLocked } }

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { core.lock.withLock { core.isDisposed } }

  /// Broadcasts `event`; ignored after a terminal event or disposal.
  @inlinable
  public func on(_ event: Event<Element>) {
    // An element while nobody delivers skips the lock (after a terminal event or disposal
    // nobody is subscribed, so it reaches nobody).
    if case .next = event, core.publishNextIfIdle(event) { return }
    guard core.lockIfAccepting() else { return }
    core.publishAndUnlock(event)
  }

  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    guard core.lockForSubscribing(observer, subject: "PublishSubject") else {
      return Disposables.create()
    }
    let entry = core.addLocked(observer)
    core.lock.unlock()
    return entry
  }

  /// The subject as an observer.
  public func asObserver() -> PublishSubject<Element> { self }

  /// Unsubscribes every observer; later events are ignored and new subscribers get an error.
  public func dispose() {
    // The observers are released after the lock.
    core.dispose()
  }
}

extension PublishSubject: ObserverReleasing {}
