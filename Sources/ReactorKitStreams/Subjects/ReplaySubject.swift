/// A subject that replays up to a number of past elements (and the terminal event) to each
/// new subscriber, then forwards later events.
///
/// Create one with ``create(bufferSize:)`` or ``createUnbound()``. Thread-safe and serial per
/// observer; hands a long delivery over to another sender and releases its subscriptions when
/// freed or disposed, like ``PublishSubject``.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable, @unchecked Sendable
{
  // Safety: `core` and `replay` are only touched with `core.lock` held.
  /// The replay buffer: `elements[head...]` are the elements to replay.
  @usableFromInline
  struct Buffer {
    @usableFromInline var elements: [Element] = []
    @usableFromInline var head = 0

    @inlinable init() {}
  }

  @usableFromInline let core = SubjectCore<Element>()
  @usableFromInline let bufferSize: Int
  /// In an ``ExclusiveCell`` so `on` pays no dynamic exclusivity checks (the lock already
  /// gives exclusive access).
  @usableFromInline let replay: ExclusiveCell<Buffer>

  private init(bufferSize: Int) {
    self.bufferSize = bufferSize
    replay = ExclusiveCell(Buffer())
    super.init()
  }

  deinit {
    core.detachObservers()
  }

  /// A subject that replays the last `bufferSize` elements.
  ///
  /// - Parameter bufferSize: How many elements to replay (at least 0).
  /// - Complexity: Memory grows with `bufferSize`.
  public static func create(bufferSize: Int) -> ReplaySubject<Element> {
    precondition(bufferSize >= 0, "ReplaySubject.create(bufferSize:) needs a size of at least 0.")
    return ReplaySubject(bufferSize: bufferSize)
  }

  /// A subject that replays every element it ever received.
  ///
  /// - Complexity: Memory grows with the number of elements received.
  public static func createUnbound() -> ReplaySubject<Element> {
    ReplaySubject(bufferSize: .max)
  }

  /// Whether any observer is subscribed.
  public var hasObservers: Bool { core.lock.withLock { core.hasObserversLocked } }

  /// Whether ``dispose()`` was called.
  public var isDisposed: Bool { core.lock.withLock { core.isDisposed } }

  /// Buffers a `.next` value and broadcasts `event`; ignored after a terminal event.
  @inlinable
  public func on(_ event: Event<Element>) {
    guard core.lockIfAccepting() else { return }
    if case .next(let value) = event, bufferSize > 0 {
      replay.value.elements.append(value)
      let count = replay.value.elements.count
      if count - replay.value.head > bufferSize { replay.value.head += 1 }
      // Compact once the dropped prefix outgrows the live part: amortised O(1), and at most
      // about `bufferSize` dropped elements stay referenced.
      let head = replay.value.head
      if head * 2 > count {
        replay.value.elements.removeFirst(head)
        replay.value.head = 0
      }
    }
    core.publishAndUnlock(event)
  }

  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    core.lock.lock()
    if core.isDisposed {
      core.lock.unlock()
      observer.on(.error(RxError.disposed(object: "ReplaySubject")))
      return Disposables.create()
    }
    var events = replay.value.elements[replay.value.head...].map {
      Event<Element>.next($0)
    }
    if let stop = core.stopEvent {
      core.lock.unlock()
      events.append(stop)
      for event in events { observer.on(event) }
      return Disposables.create()
    }
    let entry = core.addLocked(observer)
    if events.isEmpty {
      core.lock.unlock()
    } else {
      core.sendAndUnlock(events, to: entry)
    }
    return entry
  }

  /// The subject as an observer.
  public func asObserver() -> ReplaySubject<Element> { self }

  /// Unsubscribes every observer and drops the buffer.
  public func dispose() {
    // The observers and the buffered elements are released after the lock.
    let released = core.lock.withLock {
      var buffer = Buffer()
      swap(&buffer, &replay.value)
      return (core.disposeLocked(), buffer)
    }
    SubjectCore.release(released.0)
    withExtendedLifetime(released) {}
  }
}

extension ReplaySubject: ObserverReleasing {}
