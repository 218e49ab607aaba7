import Dispatch
import Foundation
import ReactorKitStreams

extension ObservableConvertibleType {
  /// Turns the sequence into a ``BlockingObservable`` whose methods wait for its events.
  ///
  /// Meant for tests. Called on the main thread, the waiting methods keep the current run
  /// loop running, so a sequence that delivers on the main queue (`MainScheduler`) still
  /// makes progress; see ``BlockingObservable`` for the limits.
  ///
  /// - Parameter timeout: The longest time to wait, in seconds; `nil` waits forever. When it
  ///   elapses the subscription is disposed and `RxError.timeout` is thrown.
  /// - Returns: The blocking view of the sequence.
  public func toBlocking(timeout: TimeInterval? = nil) -> BlockingObservable<Element> {
    BlockingObservable(source: asObservable(), timeout: timeout)
  }
}

/// The events of a finished (or cut short) blocking subscription: the elements received,
/// and how the sequence ended.
public enum MaterializedSequenceResult<Element> {
  /// The sequence completed after sending `elements`.
  case completed(elements: [Element])
  /// The sequence failed with `error` (`RxError.timeout` when the wait timed out) after
  /// sending `elements`.
  case failed(elements: [Element], error: Swift.Error)
}

/// A sequence whose methods subscribe, block the calling thread until the result is known,
/// and return it. Create one with
/// ``ReactorKitStreams/ObservableConvertibleType/toBlocking(timeout:)``.
///
/// Each method subscribes anew. A method that needs only part of the sequence (``first()``,
/// ``single()``) disposes the subscription as soon as it knows the answer.
///
/// > Important: Waiting on the main thread runs its run loop, which drains the main
/// > dispatch queue. On Linux that is the only way XCTest services the main queue, so a
/// > sequence delivering on `MainScheduler` completes instead of deadlocking. Waiting on
/// > another thread blocks it on a semaphore: a sequence that needs *that* thread (its run
/// > loop, or a serial queue it is running) to make progress cannot finish and ends with
/// > the timeout (or hangs without one). The same holds for code already running *in* a
/// > main-queue block, such as a `@MainActor` Swift Testing test: the main queue cannot run
/// > another block until this one returns, so a sequence that delivers on the main queue
/// > times out there; iterate `observable.values` with `await` instead.
public struct BlockingObservable<Element> {
  let source: Observable<Element>
  let timeout: TimeInterval?

  /// All elements, once the sequence completes.
  ///
  /// - Throws: The sequence's error, or `RxError.timeout`.
  public func toArray() throws -> [Element] {
    let result = run(until: { _ in false })
    if let error = result.error { throw error }
    return result.elements
  }

  /// The first element, or `nil` when the sequence completes empty.
  ///
  /// - Throws: The sequence's error if it fails before an element, or `RxError.timeout`.
  public func first() throws -> Element? {
    let result = run(until: { $0.count == 1 })
    if let element = result.elements.first { return element }
    if let error = result.error { throw error }
    return nil
  }

  /// The last element, or `nil` when the sequence completes empty.
  ///
  /// - Throws: The sequence's error, or `RxError.timeout`.
  public func last() throws -> Element? {
    let result = run(until: { _ in false })
    if let error = result.error { throw error }
    return result.elements.last
  }

  /// The only element of the sequence.
  ///
  /// - Throws: `RxError.noElements` when it completes empty,
  ///   `RxError.moreThanOneElement` as soon as a second element arrives, the sequence's
  ///   error, or `RxError.timeout`.
  public func single() throws -> Element {
    try single { _ in true }
  }

  /// The only element that satisfies `predicate`.
  ///
  /// - Throws: `RxError.noElements` when none does, `RxError.moreThanOneElement` as soon
  ///   as a second one arrives, the sequence's or the predicate's error, or
  ///   `RxError.timeout`.
  public func single(_ predicate: @escaping (Element) throws -> Bool) throws -> Element {
    // The predicate is not called again once the answer is decided (a second match or an
    // error), even while a synchronous source keeps emitting.
    let filtered = Observable<Element>.create { observer in
      var matches = 0  // 2 once decided; events are delivered serially
      return source.subscribe { event in
        guard matches < 2 else { return }
        guard case .next(let element) = event else { return observer.on(event) }
        do {
          guard try predicate(element) else { return }
          matches += 1
          observer.onNext(element)
        } catch {
          matches = 2
          observer.onError(error)
        }
      }
    }
    let result = BlockingObservable(source: filtered, timeout: timeout).run(until: {
      $0.count == 2
    })
    if result.elements.count > 1 { throw RxError.moreThanOneElement }
    if let error = result.error { throw error }
    guard let element = result.elements.first else { throw RxError.noElements }
    return element
  }

  /// Waits for the end of the sequence and reports what happened instead of throwing.
  ///
  /// - Returns: The elements and how the sequence ended; a timeout is reported as
  ///   `.failed` with `RxError.timeout`.
  public func materialize() -> MaterializedSequenceResult<Element> {
    let result = run(until: { _ in false })
    if let error = result.error {
      return .failed(elements: result.elements, error: error)
    }
    return .completed(elements: result.elements)
  }

  /// Subscribes and waits until the sequence terminates, `isEnough` says the elements so
  /// far suffice, or the timeout elapses.
  private func run(until isEnough: @escaping ([Element]) -> Bool) -> (
    elements: [Element], error: Swift.Error?
  ) {
    let state = BlockingState<Element>()
    // On a trampoline of its own, so a synchronous source runs now even when this is called
    // from inside a subscription or trampolined work (whose queue would run only after this).
    let subscription = CurrentThreadScheduler.onFreshTrampoline {
      source.subscribe { event in
        state.record(event, isEnough: isEnough)
      }
    }
    let finished = state.wait(timeout: timeout)
    subscription.dispose()
    let (elements, error) = state.result
    return (elements, finished ? error : RxError.timeout)
  }
}

/// What a blocking subscription received, and the signal that it is over.
private final class BlockingState<Element>: @unchecked Sendable {
  // Safety: `elements`, `error` and `done` are guarded by `lock`; `semaphore` is
  // thread-safe.
  private let lock = NSLock()
  private let semaphore = DispatchSemaphore(value: 0)
  private var elements: [Element] = []
  private var error: Swift.Error?
  private var done = false

  var result: ([Element], Swift.Error?) {
    lock.lock()
    defer { lock.unlock() }
    return (elements, error)
  }

  private var isDone: Bool {
    lock.lock()
    defer { lock.unlock() }
    return done
  }

  func record(_ event: Event<Element>, isEnough: ([Element]) -> Bool) {
    lock.lock()
    guard !done else {
      lock.unlock()
      return
    }
    switch event {
    case .next(let element):
      elements.append(element)
      done = isEnough(elements)
    case .error(let failure):
      error = failure
      done = true
    case .completed:
      done = true
    }
    let finished = done
    lock.unlock()
    if finished { semaphore.signal() }
  }

  /// Waits until done; returns `false` when the timeout elapsed first.
  func wait(timeout: TimeInterval?) -> Bool {
    let deadline = timeout.map { Date().addingTimeInterval($0) }
    guard MainScheduler.isMainThread else {
      guard let deadline else {
        semaphore.wait()
        return true
      }
      let remaining = max(0, deadline.timeIntervalSinceNow)
      return semaphore.wait(timeout: .now() + remaining) == .success || isDone
    }
    // On the main thread: keep the run loop (and with it the main queue) turning.
    while !isDone {
      let slice = Date().addingTimeInterval(0.005)
      if let deadline, deadline <= Date() { return isDone }
      _ = RunLoop.current.run(mode: .default, before: deadline.map { min($0, slice) } ?? slice)
    }
    return true
  }
}
