import Foundation
import ReactorKit

/// What a test store has seen and not yet asserted, in order: a store's elements, a reactor's
/// mutations. Filled on the processing thread, drained on the test's thread.
final class ReceivedQueue<Element>: @unchecked Sendable {
  // Safety: `elements`, `waiters`, `woken` and `nextWaiter` are only touched with
  // `condition` locked; continuations are resumed with it unlocked.
  private let condition = NSCondition()
  private var elements: [Element] = []
  /// Tasks suspended in ``waitForElement(until:)``, by id.
  private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  /// Waiters woken (timed out or cancelled) before they suspended.
  private var woken: Set<UInt64> = []
  private var nextWaiter: UInt64 = 0

  func append(_ element: Element) {
    condition.lock()
    elements.append(element)
    condition.broadcast()
    let resumed = Array(waiters.values)
    waiters = [:]
    condition.unlock()
    for continuation in resumed { continuation.resume() }
  }

  func takeAll() -> [Element] {
    condition.lock()
    defer { condition.unlock() }
    let all = elements
    elements = []
    return all
  }

  /// Removes and returns the elements that `isIncluded` selects, in order.
  func take(where isIncluded: (Element) -> Bool) -> [Element] {
    condition.lock()
    defer { condition.unlock() }
    let own = elements.filter(isIncluded)
    elements.removeAll(where: isIncluded)
    return own
  }

  /// Removes and returns the oldest element, if any, without waiting.
  func takeFirst() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    return elements.isEmpty ? nil : elements.removeFirst()
  }

  /// Suspends until an element is recorded, `deadline` passes or the task is cancelled,
  /// whichever comes first (returns at once if a element is waiting).
  func waitForElement(until deadline: ContinuousClock.Instant) async {
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

  /// Keeps `continuation` as waiter `id`, or resumes it at once when a element is waiting
  /// or the waiter was woken already.
  private func suspend(_ id: UInt64, _ continuation: CheckedContinuation<Void, Never>) {
    condition.lock()
    if !elements.isEmpty || woken.remove(id) != nil {
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

  /// Removes and returns the oldest element, waiting for one until `deadline`.
  func takeFirst(until deadline: Date) -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while elements.isEmpty {
      if !condition.wait(until: deadline) { break }
    }
    return elements.isEmpty ? nil : elements.removeFirst()
  }
}
