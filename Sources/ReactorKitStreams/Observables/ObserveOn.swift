extension ObservableType {
  /// Delivers the events on `scheduler`.
  ///
  /// Events keep their order and are delivered serially, even on a concurrent scheduler:
  /// one scheduled drain at a time delivers everything that has arrived. Disposing the
  /// subscription drops the events not yet delivered. On a virtual-time scheduler
  /// (`TestScheduler`) each event gets its own scheduled action, as in RxSwift, so
  /// `Single.just(1).observe(on: testScheduler)` completes one unit after its element.
  ///
  /// With ``MainScheduler/instance`` an event that arrives on the main thread while nothing
  /// is queued is delivered at once, synchronously.
  ///
  /// - Parameter scheduler: Where the observer receives the events.
  /// - Returns: The same sequence, observed on `scheduler`.
  @inlinable
  public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      ObserveOnSubscription(observer, scheduler: scheduler).run(source)
    }
  }

  /// Subscribes to (and disposes the subscription of) the source on `scheduler`.
  ///
  /// Only the work done when subscribing moves; events are delivered wherever the source
  /// produces them (use ``observe(on:)`` to move those).
  ///
  /// - Parameter scheduler: Where the source is subscribed and later unsubscribed.
  /// - Returns: The same sequence, subscribed on `scheduler`.
  @inlinable
  public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      sink.setUpstream(
        scheduler.schedule(()) { _ in
          let subscription = source.subscribe(AnyObserver { sink.forward($0) })
          return Disposables.create {
            _ = scheduler.schedule(()) { _ in
              subscription.dispose()
              return Disposables.create()
            }
          }
        })
      return sink
    }
  }
}

/// One `observe(on:)` subscription: a queue of events and at most one scheduled drain.
@usableFromInline
final class ObserveOnSubscription<Element>: @unchecked Sendable {
  // Safety: `state` is only touched with `lock` held; only the single scheduled drain calls
  // `sink`.
  @usableFromInline
  struct State {
    /// Events not yet delivered; each is released once delivered.
    @usableFromInline var queue = Queue<Event<Element>>()
    @usableFromInline var drainScheduled = false
    /// Counts scheduled drains, to tell whether `pendingDrain` belongs to the current one.
    @usableFromInline var drainGeneration: UInt64 = 0
    /// The scheduled drain that has not run yet, to cancel on disposal.
    @usableFromInline var pendingDrain: Disposable?
    @usableFromInline var disposed = false
    /// The source let go of the subscription: once the queue is delivered, the sink passes
    /// the release on (see ``SubscriptionLink``).
    @usableFromInline var sourceReleased = false

    @inlinable init() {}
  }

  @usableFromInline let sink: Sink<Element>
  @usableFromInline let scheduler: ImmediateSchedulerType
  /// Whether each drain delivers one event and schedules the next (virtual time), instead of
  /// delivering everything queued.
  @usableFromInline let oneEventPerAction: Bool
  @usableFromInline let lock = Lock()
  /// In an ``ExclusiveCell`` so the per-event path pays no dynamic exclusivity checks.
  @usableFromInline let state: ExclusiveCell<State>

  @inlinable
  init(_ observer: AnyObserver<Element>, scheduler: ImmediateSchedulerType) {
    sink = Sink(observer)
    self.scheduler = scheduler
    oneEventPerAction = scheduler is VirtualTimeScheduling
    state = ExclusiveCell(State())
    sink.extra = ObserveOnResources(self)
  }

  @inlinable
  func run(_ source: Observable<Element>) -> Disposable {
    sink.run(source) { self.on($0) }
  }

  @inlinable
  func on(_ event: Event<Element>) {
    lock.lock()
    state.value.queue.append(event)
    guard !state.value.drainScheduled else {
      lock.unlock()
      return
    }
    state.value.drainScheduled = true
    scheduleDrainAndUnlock()
  }

  /// Schedules the drain (`drainScheduled` is set); called with the lock held, returns with
  /// it released.
  @inlinable
  func scheduleDrainAndUnlock() {
    state.value.drainGeneration &+= 1
    let generation = state.value.drainGeneration
    lock.unlock()
    let drain = scheduler.schedule(()) { _ in
      self.drain()
      return Disposables.create()
    }
    lock.lock()
    // Keep the drain for cancellation only while it is still pending (it may have run
    // synchronously, or on another thread, already).
    let keep =
      state.value.drainScheduled && state.value.drainGeneration == generation
      && !state.value.disposed
    if keep { state.value.pendingDrain = drain }
    let cancel = state.value.disposed
    lock.unlock()
    if cancel { drain.dispose() }
  }

  @inlinable
  func drain() {
    while true {
      lock.lock()
      guard !sink.isDisposed, let event = state.value.queue.popFirst() else {
        // Disposed: drop what is left (an empty queue keeps its storage for the next event).
        if !state.value.queue.isEmpty { state.value.queue.removeAll() }
        state.value.drainScheduled = false
        state.value.pendingDrain = nil
        let released = state.value.sourceReleased
        lock.unlock()
        if released { sink.releaseWithSource() }
        return
      }
      lock.unlock()
      sink.forward(event)
      if oneEventPerAction {
        // One event per scheduled action (virtual time): schedule the next drain for what is
        // left; an empty queue or a disposed sink ends this drain in the loop above.
        lock.lock()
        if state.value.queue.isEmpty || sink.isDisposed {
          lock.unlock()
          continue
        }
        state.value.pendingDrain = nil
        scheduleDrainAndUnlock()
        return
      }
    }
  }

  /// The source let go of the subscription: passes that on now when nothing is queued, or
  /// once the scheduled drain delivered what is.
  @usableFromInline
  func upstreamReleased() {
    lock.lock()
    state.value.sourceReleased = true
    let idle = !state.value.drainScheduled
    lock.unlock()
    if idle { sink.releaseWithSource() }
  }

  /// Drops the events not yet delivered and cancels a pending drain.
  @usableFromInline
  func disposeQueue() {
    let pending = lock.withLock {
      state.value.disposed = true
      state.value.queue.removeAll()
      let pending = state.value.pendingDrain
      state.value.pendingDrain = nil
      return pending
    }
    pending?.dispose()
  }
}

/// The extra resource of an `observe(on:)` sink: disposing drops the queue; the source letting
/// go of the subscription is passed on once the queued events are delivered.
@usableFromInline
final class ObserveOnResources<Element>: UpstreamReleaseHandling, @unchecked Sendable {
  // Safety: a weak reference, set once; the subscription synchronises itself.
  @usableFromInline weak var subscription: ObserveOnSubscription<Element>?

  @inlinable
  init(_ subscription: ObserveOnSubscription<Element>) {
    self.subscription = subscription
  }

  @usableFromInline
  func dispose() { subscription?.disposeQueue() }

  @usableFromInline
  func upstreamReleased<Other>(of sink: Sink<Other>) {
    guard let subscription else {
      sink.releaseWithSource()
      return
    }
    subscription.upstreamReleased()
  }
}
