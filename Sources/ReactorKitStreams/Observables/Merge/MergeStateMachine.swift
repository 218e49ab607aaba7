/// The bookkeeping of the merge family (`merge`, `flatMap`, `flatMapLatest`,
/// `flatMapFirst`, `concatMap`, `merge(maxConcurrent:)`), as a value type whose methods say
/// what to do next; ``MergeSink`` keeps it under its lock and performs the actions outside.
///
/// Inner sequences are numbered. At most one inner is being started at a time
/// (``subscribing``): its `subscribe` call, or the synchronous delivery of its elements when
/// they are known up front, runs outside the lock and may complete the inner, so the machine
/// remembers that and the subscription is disposed as soon as `subscribe` returns. Inners that
/// arrive while another one is being started wait in ``waiting`` and are started by the same
/// loop, which keeps reentrant sources from recursing and keeps their order.
@usableFromInline
struct MergeStateMachine<Inner> {
  /// How inner sequences are combined.
  @usableFromInline
  enum Strategy {
    /// Up to `maxConcurrent` inners at once, the rest wait in arrival order.
    case concurrent(maxConcurrent: Int)
    /// Only the newest inner; a new one replaces (disposes) the previous one.
    case latest
    /// Only one inner at a time; outer elements arriving meanwhile are dropped.
    case first
  }

  /// The next step after an inner's `subscribe` call returned or the inner finished.
  @usableFromInline
  struct Step {
    /// A finished or replaced inner subscription to dispose (outside the lock).
    @usableFromInline var dispose: Disposable?
    /// An inner to subscribe next, with its number.
    @usableFromInline var subscribe: (id: UInt64, inner: Inner)?
    /// Whether the whole sequence is complete.
    @usableFromInline var complete = false

    @inlinable
    init(dispose: Disposable? = nil, subscribe: (id: UInt64, inner: Inner)? = nil) {
      self.dispose = dispose
      self.subscribe = subscribe
    }
  }

  @usableFromInline let strategy: Strategy
  /// Inners counted as running: subscribed or being subscribed, not yet completed.
  @usableFromInline var active = 0
  @usableFromInline var outerCompleted = false
  @usableFromInline var terminated = false
  @usableFromInline var nextID: UInt64 = 0
  /// The number of the newest inner (``Strategy/latest`` only).
  @usableFromInline var latestID: UInt64 = .max
  /// The inner whose `subscribe` call is running, and whether it already completed.
  @usableFromInline var subscribing: (id: UInt64, finished: Bool)?
  /// Subscriptions of running inners, by number.
  @usableFromInline var live: [UInt64: Disposable] = [:]
  @usableFromInline var waiting = Queue<Inner>()

  @inlinable
  init(strategy: Strategy) {
    self.strategy = strategy
  }

  /// Whether the outer element should be mapped to an inner at all. ``Strategy/first``
  /// reserves its single slot here, so the selector only runs for elements that are used.
  @inlinable
  mutating func outerElementArrived() -> Bool {
    guard !terminated else { return false }
    if case .first = strategy {
      if active > 0 { return false }
      active = 1
    }
    return true
  }

  /// An inner was produced from an outer element.
  ///
  /// - Parameter replaced: Receives the subscription that a ``Strategy/latest`` inner
  ///   replaces, to dispose outside the lock.
  /// - Returns: The number to start `inner` under now, or `nil` when it waits its turn (or
  ///   the sequence has ended).
  @inlinable
  mutating func innerArrived(_ inner: Inner, replaced: inout Disposable?) -> UInt64? {
    guard !terminated else { return nil }
    switch strategy {
    case .latest:
      replaced = live.removeValue(forKey: latestID)
      active = 1
      return startInner(latest: true)
    case .first:
      return startInner(latest: false)
    case .concurrent(let maxConcurrent):
      if subscribing != nil || active >= maxConcurrent {
        waiting.append(inner)
        return nil
      }
      active += 1
      return startInner(latest: false)
    }
  }

  /// The outer sequence completed.
  ///
  /// - Returns: Whether the whole sequence is complete now.
  @inlinable
  mutating func outerDidComplete() -> Bool {
    outerCompleted = true
    return !terminated && active == 0 && waiting.isEmpty
  }

  /// The `subscribe` call of inner `id` returned `disposable`.
  @inlinable
  mutating func subscribeReturned(id: UInt64, disposable: Disposable) -> Step {
    let finished = subscribing?.finished ?? true
    subscribing = nil
    var step = Step()
    if finished || terminated || isStale(id) {
      step.dispose = disposable
    } else {
      live[id] = disposable
    }
    step.subscribe = nextWaiting()
    return step
  }

  /// Inner `id`, being started, delivered its elements synchronously and completed without a
  /// subscription: ``innerCompleted(id:)`` and ``subscribeReturned(id:disposable:)`` in one.
  ///
  /// - Returns: Whether the whole sequence is complete now, and the next inner to start.
  @inlinable
  mutating func synchronousInnerFinished(id: UInt64) -> (
    complete: Bool, next: (id: UInt64, inner: Inner)?
  ) {
    subscribing = nil
    if isCurrent(id) {
      active -= 1
      if outerCompleted && active == 0 && waiting.isEmpty { return (true, nil) }
    }
    return (false, nextWaiting())
  }

  /// Whether events of inner `id` are still wanted.
  @inlinable
  func isCurrent(_ id: UInt64) -> Bool {
    !terminated && !isStale(id)
  }

  /// Inner `id` completed.
  @inlinable
  mutating func innerCompleted(id: UInt64) -> Step {
    guard isCurrent(id) else { return Step() }
    var step = Step()
    if subscribing?.id == id {
      subscribing?.finished = true
    } else {
      step.dispose = live.removeValue(forKey: id)
    }
    active -= 1
    if subscribing == nil {
      step.subscribe = nextWaiting()
    }
    step.complete = step.subscribe == nil && outerCompleted && active == 0 && waiting.isEmpty
    return step
  }

  /// Stops everything.
  ///
  /// - Returns: The subscriptions of the running inners, to dispose outside the lock.
  @inlinable
  mutating func terminate() -> [Disposable] {
    terminated = true
    waiting.removeAll()
    let all = Array(live.values)
    live = [:]
    return all
  }

  @inlinable
  func isStale(_ id: UInt64) -> Bool {
    if case .latest = strategy { return id != latestID }
    return false
  }

  @inlinable
  mutating func startInner(latest: Bool) -> UInt64 {
    let id = nextID
    nextID &+= 1
    if latest { latestID = id }
    subscribing = (id, false)
    return id
  }

  @inlinable
  mutating func nextWaiting() -> (id: UInt64, inner: Inner)? {
    guard !terminated, case .concurrent(let maxConcurrent) = strategy, active < maxConcurrent,
      let inner = waiting.popFirst()
    else { return nil }
    active += 1
    return (startInner(latest: false), inner)
  }
}
