/// The downstream end of an operator whose sources may emit concurrently (merge, flatMap,
/// combineLatest, zip, withLatestFrom, take(until:), …).
///
/// A source handler takes ``lock``, updates the operator's state (kept in a subclass and
/// guarded by the same lock), then calls ``onAndUnlock(_:)``, which releases the lock. Events
/// therefore enter the queue in the order of the state changes that produced them.
///
/// Delivery is serial and happens outside the lock: the first caller becomes the deliverer
/// and drains a FIFO queue that concurrent and reentrant callers append to (a queue plus a
/// busy flag, never recursion, never a blocked thread). A `.next` item becomes the output
/// element through `transform` at delivery time, so user code such as a result selector
/// runs serially, in event order, and never under the lock; a throwing `transform` ends the
/// sequence with its error.
///
/// The first terminal event wins: it releases the sources at once (``releaseSources()``)
/// and is delivered after the items queued before it. ``dispose()`` drops queued items and
/// releases the sources.
///
/// ``SerialSink`` serves operators with one state machine and one source (the time
/// operators); this class serves operators with several concurrent sources, whose result
/// selectors must run in event order.
///
/// The subclass's own lock-guarded state is ``state`` (of type `State`). It lives out of line,
/// together with the sink's queue and flags, in one ``ExclusiveCell``, so the per-element path
/// pays no dynamic exclusivity checks: the lock already makes every access exclusive.
@usableFromInline
class FanInSink<Item, Element, State>: Cancelable, @unchecked Sendable {
  // Safety: `storage` is only read or written with `lock` held; `observer` and `transform`
  // are immutable and only called by the single deliverer that `delivering` elects.
  @usableFromInline
  struct Storage {
    @usableFromInline var pending = Queue<Event<Item>>()
    @usableFromInline var delivering = false
    @usableFromInline var stopped = false
    @usableFromInline var disposed = false
    @usableFromInline var released = false
    @usableFromInline var state: State

    @inlinable
    init(state: State) { self.state = state }
  }

  @usableFromInline let lock = Lock()
  @usableFromInline let observer: AnyObserver<Element>
  @usableFromInline let transform: (Item) throws -> Element
  @usableFromInline let storage: ExclusiveCell<Storage>

  @inlinable
  init(
    _ observer: AnyObserver<Element>, state: State,
    transform: @escaping (Item) throws -> Element
  ) {
    self.observer = observer
    self.transform = transform
    storage = ExclusiveCell(Storage(state: state))
    Resources.incrementTotal()
  }

  deinit {
    Resources.decrementTotal()
  }

  /// The subclass's state. Use with the lock held.
  @inlinable
  final var state: State {
    get { storage.value.state }
    _modify { yield &storage.value.state }
  }

  /// Whether a terminal event was accepted or the sink was disposed. Call with the lock held.
  @inlinable
  final var isStoppedLocked: Bool { storage.value.stopped || storage.value.disposed }

  /// Whether ``dispose()`` was called.
  @inlinable
  final var isDisposed: Bool { lock.withLock { storage.value.disposed } }

  /// Whether a terminal event was accepted or the sink was disposed.
  @inlinable
  final var isStopped: Bool { lock.withLock { storage.value.stopped || storage.value.disposed } }

  /// Releases the operator's sources. Called once, outside the lock, on the first terminal
  /// event or on disposal. Subclasses override it; the default does nothing.
  @usableFromInline
  func releaseSources() {}

  /// Queues `event` and delivers it, unless the sink is stopped. Call with the lock held; the
  /// lock is released on return.
  @inlinable
  final func onAndUnlock(_ event: Event<Item>) {
    if storage.value.stopped || storage.value.disposed {
      lock.unlock()
      return
    }
    let isTerminal = event.isStopEvent
    if isTerminal { storage.value.stopped = true }
    if storage.value.delivering {
      storage.value.pending.append(event)
      lock.unlock()
      if isTerminal { release() }
      return
    }
    storage.value.delivering = true
    lock.unlock()
    if isTerminal { release() }
    deliverAndDrain(event)
  }

  /// Takes the lock and calls ``onAndUnlock(_:)``.
  @inlinable
  final func on(_ event: Event<Item>) {
    lock.lock()
    onAndUnlock(event)
  }

  /// Delivers `first`, then everything queued meanwhile. Runs only on the elected deliverer.
  @inlinable
  final func deliverAndDrain(_ first: Event<Item>) {
    var event = first
    while true {
      switch event {
      case .next(let item):
        let element: Element
        do {
          element = try transform(item)
        } catch {
          fail(error)
          return
        }
        observer.on(.next(element))
      case .error(let error):
        observer.on(.error(error))
        return
      case .completed:
        observer.on(.completed)
        return
      }
      lock.lock()
      if storage.value.disposed {
        lock.unlock()
        return
      }
      guard let next = storage.value.pending.popFirst() else {
        storage.value.delivering = false
        lock.unlock()
        return
      }
      lock.unlock()
      event = next
    }
  }

  /// Ends the sequence with an error thrown by `transform`, ahead of anything still queued.
  @usableFromInline
  final func fail(_ error: Swift.Error) {
    if stopUnlessDisposed(disposing: false) { observer.on(.error(error)) }
  }

  /// Calls ``releaseSources()`` the first time only.
  @usableFromInline
  final func release() {
    lock.lock()
    if storage.value.released {
      lock.unlock()
      return
    }
    storage.value.released = true
    lock.unlock()
    releaseSources()
  }

  /// Stops delivery, drops queued events and releases the sources.
  @usableFromInline
  final func dispose() {
    stopUnlessDisposed(disposing: true)
  }

  /// Unless the sink was disposed: marks it disposed (`disposing`) or stopped, drops the queued
  /// events and releases the sources. Returns whether it did, so a failure is then delivered.
  @usableFromInline
  @discardableResult
  final func stopUnlessDisposed(disposing: Bool) -> Bool {
    lock.lock()
    if storage.value.disposed {
      lock.unlock()
      return false
    }
    if disposing {
      storage.value.disposed = true
    } else {
      storage.value.stopped = true
    }
    storage.value.pending.removeAll()
    lock.unlock()
    release()
    return true
  }
}
