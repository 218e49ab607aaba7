extension ObservableType {
  /// Delivers the events on `scheduler`.
  ///
  /// Events keep their order and are delivered serially, even on a concurrent scheduler:
  /// one scheduled drain at a time delivers everything that has arrived. Disposing the
  /// subscription drops the events not yet delivered.
  ///
  /// With ``MainScheduler/instance`` an event that arrives on the main thread while nothing
  /// is queued is delivered at once, synchronously.
  ///
  /// - Parameter scheduler: Where the observer receives the events.
  /// - Returns: The same sequence, observed on `scheduler`.
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
  public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
    let source = asObservable()
    return Observable { observer in
      let sink = Sink(observer)
      sink.upstream.setDisposable(
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
private final class ObserveOnSubscription<Element>: @unchecked Sendable {
  // Safety: `queue`, `queueHead` and `drainScheduled` are guarded by `lock`; `scheduled`
  // synchronises itself; only the single scheduled drain calls `sink`.
  private let sink: Sink<Element>
  private let scheduler: ImmediateSchedulerType
  private let lock = Lock()
  private var queue: [Event<Element>] = []
  private var queueHead = 0
  private var drainScheduled = false
  private let scheduled = SerialDisposable()

  init(_ observer: AnyObserver<Element>, scheduler: ImmediateSchedulerType) {
    sink = Sink(observer)
    self.scheduler = scheduler
    sink.extra = Disposables.create(
      scheduled,
      Disposables.create { [weak self] in self?.dropQueue() })
  }

  func run(_ source: Observable<Element>) -> Disposable {
    sink.run(source) { self.on($0) }
  }

  private func on(_ event: Event<Element>) {
    lock.lock()
    queue.append(event)
    let mustSchedule = !drainScheduled
    drainScheduled = true
    lock.unlock()
    guard mustSchedule else { return }
    scheduled.disposable = scheduler.schedule(()) { _ in
      self.drain()
      return Disposables.create()
    }
  }

  private func drain() {
    while true {
      lock.lock()
      guard queueHead < queue.count, !sink.isDisposed else {
        queue.removeAll(keepingCapacity: queue.count <= 16)
        queueHead = 0
        drainScheduled = false
        lock.unlock()
        return
      }
      let event = queue[queueHead]
      queueHead += 1
      lock.unlock()
      sink.forward(event)
    }
  }

  private func dropQueue() {
    lock.withLock {
      queue = []
      queueHead = 0
    }
  }
}
