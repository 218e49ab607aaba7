/// A subject that replays up to a number of past elements (and the terminal event) to each
/// new subscriber, then forwards later events.
///
/// Create one with ``create(bufferSize:)`` or ``createUnbound()``.
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType,
  Cancelable, @unchecked Sendable
{
  // Safety: all state is guarded by `core.lock`.
  @usableFromInline let core = SubjectCore<Element>()
  private let bufferSize: Int
  private var buffer: [Element] = []
  private var bufferHead = 0

  private init(bufferSize: Int) {
    self.bufferSize = bufferSize
    super.init()
  }

  /// A subject that replays the last `bufferSize` elements.
  ///
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
  public func on(_ event: Event<Element>) {
    core.lock.lock()
    if core.stopEvent != nil || core.isDisposed {
      core.lock.unlock()
      return
    }
    if case .next(let value) = event, bufferSize > 0 {
      buffer.append(value)
      if buffer.count - bufferHead > bufferSize { bufferHead += 1 }
      // Compact once the dropped prefix outgrows the live part: amortised O(1), and at most
      // about `bufferSize` dropped elements stay referenced.
      if bufferHead * 2 > buffer.count {
        buffer.removeFirst(bufferHead)
        bufferHead = 0
      }
    }
    core.publishLocked(event)
  }

  override func subscribeObserver(_ observer: AnyObserver<Element>) -> Disposable {
    core.lock.lock()
    if core.isDisposed {
      core.lock.unlock()
      observer.on(.error(RxError.disposed(object: "ReplaySubject")))
      return Disposables.create()
    }
    var events = buffer[bufferHead...].map { Event<Element>.next($0) }
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
      core.sendLocked(events, to: entry)
    }
    return entry
  }

  /// The subject as an observer.
  public func asObserver() -> ReplaySubject<Element> { self }

  /// Unsubscribes every observer and drops the buffer.
  public func dispose() {
    core.lock.withLock {
      core.disposeLocked()
      buffer = []
      bufferHead = 0
    }
  }
}
