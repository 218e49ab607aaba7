extension ConnectableObservableType {
  /// An observable that connects the source when its first observer subscribes and
  /// disconnects when the last one unsubscribes.
  ///
  /// A terminal event from the connection also ends it: the next subscriber connects again.
  /// Thread-safe: observers may come and go on any thread. Connecting and disconnecting
  /// never overlap: a connection is fully disposed before the next one starts. When another
  /// thread (or an outer call on the same thread) is busy connecting or disconnecting, the
  /// work is queued behind it and `subscribe` returns without waiting.
  ///
  /// - Returns: The reference-counted sequence.
  @inlinable
  public func refCount() -> Observable<Element> {
    let state = RefCountState(self)
    return Observable { observer in state.subscribe(observer) }
  }
}

/// The shared bookkeeping of one `refCount()` observable: how many observers it has, the
/// current connection, and the queue of connect/disconnect work.
@usableFromInline
final class RefCountState<Source: ConnectableObservableType>: @unchecked Sendable {
  // Safety: every `var` is guarded by `lock`; `source` is immutable. Connect and disconnect
  // work runs outside the lock, one item at a time, by the thread that owns `working`.
  @usableFromInline typealias Element = Source.Element

  @usableFromInline
  enum Work {
    case connect(SingleAssignmentDisposable)
    case disconnect(SingleAssignmentDisposable)
  }

  @usableFromInline let source: Source
  @usableFromInline let lock = Lock()
  @usableFromInline var count = 0
  @usableFromInline var connectionID: UInt64 = 0
  @usableFromInline var connection: SingleAssignmentDisposable?
  @usableFromInline var work = Queue<Work>()
  @usableFromInline var working = false

  @inlinable
  init(_ source: Source) {
    self.source = source
  }

  @inlinable
  func subscribe(_ observer: AnyObserver<Element>) -> Disposable {
    let sink = Sink(observer)
    // The connection this observer counts towards, known once it is registered.
    let snapshot = LockedBox<UInt64?>(nil)
    // When the subject lets go of the observer without a terminal event (its connection's
    // source is gone), the observer counts no more.
    sink.extra = DisposedWithSource { self.release(snapshot.withLock { $0 }) }
    let subscription = sink.run(source) { event in
      if event.isStopEvent { self.connectionTerminated(snapshot.withLock { $0 }) }
      sink.forward(event)
    }
    lock.lock()
    if sink.isDisposed {
      // Terminated (a replayed terminal event) or disposed while subscribing: do not count.
      lock.unlock()
      return subscription
    }
    let id = connectionID
    snapshot.withLock { $0 = id }
    count += 1
    if count == 1 {
      let pending = SingleAssignmentDisposable()
      connection = pending
      work.append(.connect(pending))
    }
    performWorkAndUnlock()
    return subscription
  }

  /// An observer of connection `id` went away.
  @usableFromInline
  func release(_ id: UInt64?) {
    lock.lock()
    if let id, id == connectionID {
      count -= 1
      if count == 0 { endConnectionLocked() }
    }
    performWorkAndUnlock()
  }

  /// Connection `id` delivered a terminal event: it is over for every observer.
  @usableFromInline
  func connectionTerminated(_ id: UInt64?) {
    lock.lock()
    if let id, id == connectionID { endConnectionLocked() }
    performWorkAndUnlock()
  }

  /// Forgets the current connection and queues its disposal. Call with the lock held.
  @usableFromInline
  func endConnectionLocked() {
    if let connection { work.append(.disconnect(connection)) }
    connection = nil
    count = 0
    connectionID &+= 1
  }

  /// Runs the queued work unless another call already does. Call with the lock held; the
  /// lock is released on return.
  @usableFromInline
  func performWorkAndUnlock() {
    guard !working else {
      lock.unlock()
      return
    }
    working = true
    while let next = work.popFirst() {
      lock.unlock()
      switch next {
      case .connect(let pending): pending.setDisposable(source.connect())
      case .disconnect(let pending): pending.dispose()
      }
      lock.lock()
    }
    working = false
    lock.unlock()
  }
}
