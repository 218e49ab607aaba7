#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  public static var isScheduleRequired: Bool { unsafe !Trampoline.current.pointee.isRunning }

  /// Runs `body` at once as this thread's trampolined work (work scheduled meanwhile is queued
  /// and runs after `body`, before this returns), if no trampoline is running on this thread
  /// and `condition` then returns `true`.
  ///
  /// What ``schedule(_:action:)`` does on an idle thread, without its generic state and
  /// escaping closure, for callers inside the package; `condition` lets them claim their own
  /// state only once the trampoline is known to be idle.
  ///
  /// - Returns: Whether `body` ran.
  @usableFromInline
  package static func runTrampolined(if condition: () -> Bool, _ body: () -> Void) -> Bool {
    let trampoline = unsafe Trampoline.current
    guard unsafe !trampoline.pointee.isRunning, condition() else { return false }
    unsafe trampoline.pointee.isRunning = true
    body()
    unsafe Trampoline.drain(trampoline)
    unsafe trampoline.pointee.isRunning = false
    return true
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
    let trampoline = unsafe Trampoline.current
    guard unsafe !trampoline.pointee.isRunning else { return subscribe() }
    unsafe trampoline.pointee.isRunning = true
    let disposable = subscribe()
    unsafe Trampoline.drain(trampoline)
    unsafe trampoline.pointee.isRunning = false
    return disposable
  }

  /// Runs `body` on a fresh trampoline of this thread, drained before this returns, while the
  /// work queued on the running one (if any) waits untouched: for callers that block until
  /// work they start has run (`toBlocking()` called from inside a subscription or from
  /// trampolined work), which would otherwise wait for work queued behind themselves.
  package static func onFreshTrampoline<Result>(_ body: () -> Result) -> Result {
    let trampoline = unsafe Trampoline.current
    let outer = unsafe trampoline.pointee
    unsafe trampoline.pointee = Trampoline.State()
    unsafe trampoline.pointee.isRunning = true
    let result = body()
    unsafe Trampoline.drain(trampoline)
    unsafe trampoline.pointee = outer
    return result
  }

  /// Schedules `action`: it runs at once when no trampoline is active on this thread,
  /// otherwise it is queued behind the work already running.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    let trampoline = unsafe Trampoline.current
    if unsafe trampoline.pointee.isRunning {
      let item = TrampolineItem { action(state) }
      unsafe trampoline.pointee.queue.append(item)
      return item
    }
    unsafe trampoline.pointee.isRunning = true
    let disposable = action(state)
    unsafe Trampoline.drain(trampoline)
    unsafe trampoline.pointee.isRunning = false
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

/// The per-thread queue behind ``CurrentThreadScheduler``, stored under a pthread key and
/// released when its thread exits.
///
/// Only its own thread touches it. Callers work on its state through a pointer: no reference
/// counting per schedule (the thread keeps the trampoline alive), and no dynamic exclusivity
/// checks (a class's stored `var`s would pay them).
@safe
@usableFromInline
final class Trampoline {
  @usableFromInline
  struct State {
    @usableFromInline var isRunning = false
    @usableFromInline var queue: [TrampolineItem] = []
    @usableFromInline var head = 0

    /// Whether work is queued behind the work running now.
    @inlinable var hasQueuedWork: Bool { head < queue.count }
  }

  @usableFromInline let state: UnsafeMutablePointer<State>

  private init() {
    unsafe state = .allocate(capacity: 1)
    unsafe state.initialize(to: State())
  }

  deinit {
    unsafe state.deinitialize(count: 1)
    unsafe state.deallocate()
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
      let result = unsafe pthread_key_create(&key) { pointer in
        unsafe Unmanaged<Trampoline>.fromOpaque(pointer).release()
      }
    #else
      let result = unsafe pthread_key_create(&key) { pointer in
        guard let pointer = unsafe pointer else { return }
        unsafe Unmanaged<Trampoline>.fromOpaque(pointer).release()
      }
    #endif
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
  }()

  /// The calling thread's trampoline state, valid until the thread exits.
  @usableFromInline
  static var current: UnsafeMutablePointer<State> {
    if let pointer = unsafe pthread_getspecific(key) {
      return unsafe Unmanaged<Trampoline>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
        unsafe $0.state
      }
    }
    let trampoline = Trampoline()
    unsafe pthread_setspecific(key, Unmanaged.passRetained(trampoline).toOpaque())
    return unsafe trampoline.state
  }

  /// Queues `work` behind the work running on the trampoline `state` (its thread's).
  @usableFromInline
  static func enqueue(_ state: UnsafeMutablePointer<State>, _ work: @escaping () -> Void) {
    unsafe state.pointee.queue.append(
      TrampolineItem {
        work()
        return Disposables.create()
      })
  }

  /// Runs `work` on this thread's trampoline: queued behind the running work, or, when no
  /// trampoline runs, at once as the trampolined work (what it queues runs before this
  /// returns).
  @usableFromInline
  static func run(_ work: @escaping () -> Void) {
    let state = unsafe current
    if unsafe state.pointee.isRunning {
      unsafe enqueue(state, work)
      return
    }
    unsafe state.pointee.isRunning = true
    work()
    unsafe drain(state)
    unsafe state.pointee.isRunning = false
  }

  /// Runs the queued items of `state`, including those they enqueue, in order.
  @usableFromInline
  static func drain(_ state: UnsafeMutablePointer<State>) {
    guard unsafe state.pointee.head < state.pointee.queue.count else { return }
    while unsafe state.pointee.head < state.pointee.queue.count {
      let item = unsafe state.pointee.queue[state.pointee.head]
      unsafe state.pointee.head += 1
      item.invoke()
    }
    unsafe state.pointee.queue.removeAll(keepingCapacity: state.pointee.queue.count <= 64)
    unsafe state.pointee.head = 0
  }
}
