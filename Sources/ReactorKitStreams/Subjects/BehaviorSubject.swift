/// A subject that holds a current value: each new subscriber receives it first, then every
/// later event.
///
/// Thread-safe and serial per observer; hands a long delivery over to another sender and
/// releases its subscriptions when freed or disposed, like ``PublishSubject``.
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable, @unchecked Sendable
{
  // Safety: all state is guarded by `core.lock`; the current value is the core's
  // `current`, never `nil` while the subject exists.
  @usableFromInline let core: SubjectCore<Element>

  /// Creates a subject holding `value`.
  @inlinable
  public init(value: Element) {
    core = SubjectCore()
    core.current = value
    super.init()
  }

  deinit { core.detachObservers() }

  /// Whether any observer is subscribed.
  public var hasObservers: Bool { core.lock.withLock { core.hasObserversLocked } }

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { core.lock.withLock { core.isDisposed } }

  /// The current value.
  ///
  /// - Throws: The error that ended the subject, or ``RxError/disposed(object:)``.
  public func value() throws -> Element {
    try core.lock.withLock {
      if core.isDisposed { throw RxError.disposed(object: "BehaviorSubject") }
      if case .error(let error) = core.stopEvent { throw error }
      return core.current!
    }
  }

  /// Stores a `.next` value and broadcasts `event`; ignored after a terminal event.
  @inlinable
  public func on(_ event: Event<Element>) {
    guard core.lockIfAccepting() else { return }
    if case .next(let value) = event { core.current = value }
    core.publishAndUnlock(event)
  }

  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    subscribeSpecialized(observer)
  }

  /// What subscribing does, callable directly (not through the overridden method) by code in
  /// the package that knows the subject's type, so it is specialised in the caller's module.
  @inlinable
  package func subscribeSpecialized(_ observer: AnyObserver<Element>) -> Disposable {
    guard core.lockForSubscribing(observer, subject: "BehaviorSubject") else {
      return Disposables.create()
    }
    let entry = core.addLocked(observer)
    core.sendAndUnlock(.next(core.current!), to: entry)
    return entry
  }

  /// The subject as an observer.
  public func asObserver() -> BehaviorSubject<Element> { self }

  /// Unsubscribes every observer; later events are ignored.
  public func dispose() {
    // The observers are released after the lock.
    core.dispose()
  }
}

extension BehaviorSubject: ObserverReleasing {}
