/// Runs work on the calling thread, trampolining: work scheduled while other work scheduled
/// here is running on the same thread is queued and run after it, never nested.
///
/// This is the scheduler that keeps reactors free of recursion: an action sent from inside
/// a reducer is queued and processed once the current one has finished.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
  /// The shared instance.
  public static let instance = CurrentThreadScheduler()

  private init() {}

  /// `true` when no trampoline is running on this thread, so scheduled work would run at once.
  public static var isScheduleRequired: Bool { !Trampoline.current.isRunning }

  /// Starts this thread's trampolined work if no trampoline is running here, and returns the
  /// trampoline: work scheduled on this thread from now on is queued, and runs when the caller
  /// ends its work with ``TrampolineState/leave()``. Returns `nil`, starting nothing, when a
  /// trampoline is already running.
  ///
  /// What ``schedule(_:action:)`` does on an idle thread, as two calls around work the caller
  /// runs inline, for callers inside the package: no closure, no generic state, one
  /// thread-local lookup.
  @usableFromInline
  package static func enterIdleTrampoline() -> TrampolineState? {
    let trampoline = Trampoline.current
    guard !trampoline.isRunning else { return nil }
    trampoline.isRunning = true
    return trampoline
  }

  /// Runs `subscribe` as this thread's trampolined work when no trampoline is running here,
  /// otherwise at once.
  ///
  /// Every ``Observable`` subscription goes through here, as in RxSwift: work that the
  /// subscription queues on this scheduler (the first element of `of`, `from`, `range`,
  /// `generate`) runs after `subscribe` has returned, once every operator of the chain holds
  /// its upstream disposable, so an operator that is done early (`take`) can stop the source.
  /// Everything queued still runs before this returns.
  @usableFromInline
  package static func trampolined(_ subscribe: () -> Disposable) -> Disposable {
    guard let trampoline = enterIdleTrampoline() else { return subscribe() }
    let disposable = subscribe()
    trampoline.leave()
    return disposable
  }

  /// Runs `body` on a fresh trampoline of this thread, drained before this returns, while the
  /// work queued on the running one (if any) waits untouched: for callers that block until
  /// work they start has run (`toBlocking()` called from inside a subscription or from
  /// trampolined work), which would otherwise wait for work queued behind themselves.
  package static func onFreshTrampoline<Result>(_ body: () -> Result) -> Result {
    let trampoline = Trampoline.current
    let outer = trampoline.contents
    trampoline.contents = Trampoline.State()
    trampoline.isRunning = true
    let result = body()
    trampoline.drain()
    trampoline.contents = outer
    return result
  }

  /// Schedules `action`: it runs at once when no trampoline is active on this thread,
  /// otherwise it is queued behind the work already running.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    let trampoline = Trampoline.current
    if trampoline.isRunning {
      let item = TrampolineItem { action(state) }
      trampoline.queue.append(item)
      return item
    }
    trampoline.isRunning = true
    let disposable = action(state)
    trampoline.leave()
    return disposable
  }
}

/// A queued unit of trampoline work.
@usableFromInline
final class TrampolineItem: Cancelable, @unchecked Sendable {
  // Safety: `work` is touched only by the owning thread's trampoline, and `result`
  // synchronises itself; `isDisposed` is the result's state.
  private var work: (() -> Disposable)?
  private let result = SingleAssignmentDisposable()

  init(_ work: @escaping () -> Disposable) {
    self.work = work
  }

  @usableFromInline var isDisposed: Bool { result.isDisposed }

  func invoke() {
    guard let work, !result.isDisposed else { return }
    self.work = nil
    result.setDisposable(work())
  }

  @usableFromInline func dispose() {
    result.dispose()
  }
}

extension TrampolineState {
  /// Queues `work` behind the work running on this trampoline.
  @usableFromInline
  func enqueue(_ work: @escaping () -> Void) {
    queue.append(
      TrampolineItem {
        work()
        return Disposables.create()
      })
  }

  /// Ends this thread's trampolined work (started by
  /// ``CurrentThreadScheduler/enterIdleTrampoline()`` or by setting ``isRunning``): runs what
  /// was queued meanwhile, then lets the next scheduled work run at once.
  @inlinable
  package func leave() {
    if hasQueuedWork { drain() }
    isRunning = false
  }

  /// Runs the queued items, including those they enqueue, in order.
  @usableFromInline
  func drain() {
    guard head < queue.count else { return }
    while head < queue.count {
      let item = queue[head]
      head += 1
      item.invoke()
    }
    queue.removeAll(keepingCapacity: queue.count <= 64)
    head = 0
  }
}

extension Trampoline {
  /// Runs `work` on this thread's trampoline: queued behind the running work, or, when no
  /// trampoline runs, at once as the trampolined work (what it queues runs before this
  /// returns).
  @usableFromInline
  static func run(_ work: @escaping () -> Void) {
    let trampoline = current
    if trampoline.isRunning {
      trampoline.enqueue(work)
      return
    }
    trampoline.isRunning = true
    work()
    trampoline.leave()
  }
}
