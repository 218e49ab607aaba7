import Foundation
import ReactorKit

/// The reductions a test store has seen and not yet asserted, in order. Filled on the store's
/// processing thread, drained on the test's thread.
final class ReductionRecorder<State>: @unchecked Sendable {
  // Safety: `reductions`, `waiters`, `woken` and `nextWaiter` are only touched with
  // `condition` locked; continuations are resumed with it unlocked.
  private let condition = NSCondition()
  private var reductions: [StoreReduction<State>] = []
  /// Tasks suspended in ``waitForReduction(until:)``, by id.
  private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  /// Waiters woken (timed out or cancelled) before they suspended.
  private var woken: Set<UInt64> = []
  private var nextWaiter: UInt64 = 0

  func append(_ reduction: StoreReduction<State>) {
    condition.lock()
    reductions.append(reduction)
    condition.broadcast()
    let resumed = Array(waiters.values)
    waiters = [:]
    condition.unlock()
    for continuation in resumed { continuation.resume() }
  }

  func takeAll() -> [StoreReduction<State>] {
    condition.lock()
    defer { condition.unlock() }
    let all = reductions
    reductions = []
    return all
  }

  /// Removes and returns the reductions of the work item sent with `tag`.
  func take(tag: UInt64) -> [StoreReduction<State>] {
    condition.lock()
    defer { condition.unlock() }
    let own = reductions.filter { $0.tag == tag }
    reductions.removeAll { $0.tag == tag }
    return own
  }

  /// Removes and returns the oldest reduction, if any, without waiting.
  func takeFirst() -> StoreReduction<State>? {
    condition.lock()
    defer { condition.unlock() }
    return reductions.isEmpty ? nil : reductions.removeFirst()
  }

  /// Suspends until a reduction is recorded, `deadline` passes or the task is cancelled,
  /// whichever comes first (returns at once if a reduction is waiting).
  func waitForReduction(until deadline: ContinuousClock.Instant) async {
    let id = makeWaiterID()
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      self?.wake(id)
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        suspend(id, continuation)
      }
    } onCancel: {
      wake(id)
    }
    timer.cancel()
    forget(id)
  }

  private func makeWaiterID() -> UInt64 {
    condition.lock()
    defer { condition.unlock() }
    nextWaiter &+= 1
    return nextWaiter
  }

  /// Keeps `continuation` as waiter `id`, or resumes it at once when a reduction is waiting
  /// or the waiter was woken already.
  private func suspend(_ id: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
    condition.lock()
    if !reductions.isEmpty || woken.remove(id) != nil {
      condition.unlock()
      continuation.resume()
      return
    }
    waiters[id] = continuation
    condition.unlock()
  }

  /// Forgets waiter `id` after its wait (a timer or cancellation may have marked it woken).
  private func forget(_ id: UInt64) {
    condition.lock()
    woken.remove(id)
    condition.unlock()
  }

  /// Resumes the waiter `id`, or makes it return at once if it has not suspended yet.
  private func wake(_ id: UInt64) {
    condition.lock()
    guard let continuation = waiters.removeValue(forKey: id) else {
      woken.insert(id)
      condition.unlock()
      return
    }
    condition.unlock()
    continuation.resume()
  }

  /// Removes and returns the oldest reduction, waiting for one until `deadline`.
  func takeFirst(until deadline: Date) -> StoreReduction<State>? {
    condition.lock()
    defer { condition.unlock() }
    while reductions.isEmpty {
      if !condition.wait(until: deadline) { break }
    }
    return reductions.isEmpty ? nil : reductions.removeFirst()
  }
}
