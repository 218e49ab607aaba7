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
  public static var isScheduleRequired: Bool { !Trampoline.current.isRunning }

  /// Schedules `action`: it runs at once when no trampoline is active on this thread,
  /// otherwise it is queued behind the work already running.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    let trampoline = Trampoline.current
    if trampoline.isRunning {
      let item = TrampolineItem { action(state) }
      trampoline.enqueue(item)
      return item
    }
    trampoline.isRunning = true
    let disposable = action(state)
    trampoline.drain()
    trampoline.isRunning = false
    return disposable
  }
}

/// A queued unit of trampoline work.
final class TrampolineItem: Cancelable, @unchecked Sendable {
  // Safety: `work` is touched only by the owning thread's trampoline, and `result`
  // synchronises itself; `isDisposed` is the result's state.
  private var work: (() -> Disposable)?
  private let result = SingleAssignmentDisposable()

  init(_ work: @escaping () -> Disposable) {
    self.work = work
  }

  var isDisposed: Bool { result.isDisposed }

  func invoke() {
    guard let work, !result.isDisposed else { return }
    self.work = nil
    result.setDisposable(work())
  }

  func dispose() {
    result.dispose()
  }
}

/// The per-thread queue behind ``CurrentThreadScheduler``, stored under a pthread key.
///
/// Only its own thread touches it. Its state sits behind a pointer, so the per-schedule path
/// pays no dynamic exclusivity checks (a class's stored `var`s would).
final class Trampoline {
  private struct State {
    var isRunning = false
    var queue: [TrampolineItem] = []
    var head = 0
  }

  private let state: UnsafeMutablePointer<State>

  private init() {
    state = .allocate(capacity: 1)
    state.initialize(to: State())
  }

  deinit {
    state.deinitialize(count: 1)
    state.deallocate()
  }

  var isRunning: Bool {
    get { state.pointee.isRunning }
    set { state.pointee.isRunning = newValue }
  }

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    #if canImport(Darwin)
      let result = pthread_key_create(&key) { pointer in
        Unmanaged<Trampoline>.fromOpaque(pointer).release()
      }
    #else
      let result = pthread_key_create(&key) { pointer in
        guard let pointer else { return }
        Unmanaged<Trampoline>.fromOpaque(pointer).release()
      }
    #endif
    precondition(result == 0, "pthread_key_create failed: \(result)")
    return key
  }()

  static var current: Trampoline {
    if let pointer = pthread_getspecific(key) {
      return Unmanaged<Trampoline>.fromOpaque(pointer).takeUnretainedValue()
    }
    let trampoline = Trampoline()
    pthread_setspecific(key, Unmanaged.passRetained(trampoline).toOpaque())
    return trampoline
  }

  func enqueue(_ item: TrampolineItem) {
    state.pointee.queue.append(item)
  }

  /// Runs the queued items, including those they enqueue, in order.
  func drain() {
    guard state.pointee.head < state.pointee.queue.count else { return }
    while state.pointee.head < state.pointee.queue.count {
      let item = state.pointee.queue[state.pointee.head]
      state.pointee.head += 1
      item.invoke()
    }
    state.pointee.queue.removeAll(keepingCapacity: state.pointee.queue.count <= 64)
    state.pointee.head = 0
  }
}
