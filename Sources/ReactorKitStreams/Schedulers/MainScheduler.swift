import Dispatch
import Foundation

/// Runs work on the main thread (the main dispatch queue).
///
/// ``instance`` runs work at once when called on the main thread with nothing queued ahead of
/// it on that instance, so UI bindings update synchronously; ``asyncInstance`` always goes
/// through the queue. Each instance counts its own queued work: ``SharingScheduler`` makes a
/// new instance (``init()``) for each ``Driver`` and ``Signal``, as RxSwift does, so one
/// sequence's queued work never makes another one's delivery asynchronous.
/// On Linux the main queue is serviced by `dispatchMain()`, `RunLoop.main.run()` or a test
/// runner that waits on the main thread.
public final class MainScheduler: DispatchQueueSchedulerType {
  /// Runs at once when already on the main thread and nothing is queued; otherwise enqueues.
  public static let instance = MainScheduler(alwaysAsync: false)

  /// Always enqueues onto the main queue.
  public static let asyncInstance = MainScheduler(alwaysAsync: true)

  private static let mainKey: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  private let alwaysAsync: Bool
  let configuration = DispatchQueueScheduling(queue: .main, leeway: .nanoseconds(0))
  private let enqueued = AtomicBox<Int>(0)

  private init(alwaysAsync: Bool) {
    self.alwaysAsync = alwaysAsync
  }

  /// Makes a main scheduler with its own count of queued work: it runs work at once when
  /// called on the main thread while none of the work scheduled on it is still queued.
  public convenience init() {
    self.init(alwaysAsync: false)
  }

  /// Whether the caller runs on the main thread or the main queue.
  public static var isMainThread: Bool {
    isCallerTheMainThread || DispatchQueue.getSpecific(key: mainKey) != nil
  }

  #if canImport(Glibc) || canImport(Musl)
    /// Each thread's answer to `Thread.isMainThread` (2 main, 1 not, 0 not yet asked).
    /// On Linux `Thread.isMainThread` makes two system calls each time; a thread's answer never
    /// changes, so it is asked once per thread.
    private static let isMainThreadWord = ThreadLocalWord()

    private static var isCallerTheMainThread: Bool {
      let answer = isMainThreadWord.value
      if answer != 0 { return answer == 2 }
      let isMain = Thread.isMainThread
      isMainThreadWord.value = isMain ? 2 : 1
      return isMain
    }
  #else
    private static var isCallerTheMainThread: Bool { Thread.isMainThread }
  #endif

  /// Stops the program when not called on the main thread.
  public static func ensureRunningOnMainThread(message: String = "") {
    precondition(isMainThread, "Not running on the main thread. \(message)")
  }

  /// Stops the program with `errorMessage` when not called on the main thread (RxSwift's
  /// spelling of ``ensureRunningOnMainThread(message:)``).
  public static func ensureRunningOnMainThread(errorMessage: String?) {
    precondition(isMainThread, errorMessage ?? "Running on a background thread.")
  }

  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> Disposable
  ) -> Disposable {
    let previous = enqueued.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue
    if !alwaysAsync && previous == 0 && MainScheduler.isMainThread {
      let disposable = action(state)
      enqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
      return disposable
    }
    let counter = UncheckedSendable(self)
    return configuration.schedule(state, action: action) {
      counter.value.enqueued.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
  }
}
