extension PrimitiveSequenceType where Trait == SingleTrait {
  /// Waits for the single's element; throws its error.
  ///
  /// Reading the property subscribes, even from a task that is already cancelled (as in
  /// RxSwift): a single that succeeds or fails while being subscribed still delivers its
  /// result. Cancelling the task while the single is pending disposes the subscription and
  /// throws `CancellationError` (where RxSwift's `value` never returns).
  ///
  /// ```swift
  /// let user = try await fetchUser(id: 1).value
  /// ```
  public var value: Element {
    get async throws {
      guard let element = try await awaitFirstElement(of: primitiveSequence.source) else {
        throw RxError.noElements
      }
      return element
    }
  }

  /// Creates a single that runs `work` in a new `Task` for each subscriber and emits its
  /// result; a thrown error fails the single.
  ///
  /// Disposing the subscription cancels the task.
  ///
  /// - Parameters:
  ///   - detached: Runs `work` in a detached task, outside the caller's task context.
  ///   - priority: The task's priority.
  ///   - work: The asynchronous work that produces the element.
  /// - Returns: The single.
  public static func create(
    detached: Bool = false, priority: TaskPriority? = nil,
    work: @escaping @Sendable () async throws -> Element
  ) -> Single<Element> {
    Single(
      raw: Observable.create { observer in
        // Only the task uses the observer, and `create`'s observer drops events after
        // disposal.
        let forward = UncheckedSendable(observer)
        let run: @Sendable () async -> Void = {
          do {
            let element = try await work()
            forward.value.on(.next(element))
            forward.value.on(.completed)
          } catch {
            forward.value.on(.error(error))
          }
        }
        let task =
          detached
          ? Task.detached(priority: priority, operation: run)
          : Task(priority: priority, operation: run)
        return Disposables.create { task.cancel() }
      })
  }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
  /// Waits for the maybe's element, or `nil` when it completes without one; throws its
  /// error.
  ///
  /// Reading the property subscribes, even from a task that is already cancelled (as in
  /// RxSwift): a maybe that ends while being subscribed still delivers its result.
  /// Cancelling the task while the maybe is pending disposes the subscription and throws
  /// `CancellationError` (where RxSwift's `value` never returns).
  public var value: Element? {
    get async throws {
      try await awaitFirstElement(of: primitiveSequence.source)
    }
  }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
  /// Waits for the completable to complete; throws its error.
  ///
  /// Reading the property subscribes, even from a task that is already cancelled (as in
  /// RxSwift): a completable that ends while being subscribed still delivers its result.
  /// Cancelling the task while the completable is pending disposes the subscription and
  /// throws `CancellationError` (where RxSwift's `value` never returns).
  public var value: Void {
    get async throws {
      _ = try await awaitFirstElement(of: primitiveSequence.source)
    }
  }
}

/// Subscribes to `source` and waits for its end: returns the first element (`nil` when it
/// completes without one), throws its error, or throws `CancellationError` once the waiting
/// task is cancelled while the source is pending (the subscription is then disposed).
///
/// The subscription is made even when the task is already cancelled, and a cancellation that
/// arrives while it is being made waits for it: whatever the source delivers while being
/// subscribed wins, as in RxSwift.
private func awaitFirstElement<Element>(of source: Observable<Element>) async throws
  -> Element?
{
  let state = AwaitState<Element>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      state.start(continuation, source)
    }
  } onCancel: {
    state.cancel()
  }.value
}

/// The one-shot handshake between a subscription and the task awaiting it: whichever of the
/// first event and the cancellation comes first resumes the continuation, and disposes the
/// subscription. A cancellation before or during the subscribing is held until the
/// subscribing returns, so a source that ends synchronously delivers its result.
private final class AwaitState<Element>: @unchecked Sendable {
  // Safety: `continuation`, `finished`, `isSubscribed` and `cancelRequested` are guarded by
  // `lock`; the continuation is resumed outside it, once; `subscription` synchronises itself.
  typealias Continuation = CheckedContinuation<UncheckedSendable<Element?>, Swift.Error>

  private let lock = Lock()
  private var continuation: Continuation?
  private var finished = false
  /// Whether `start` returned from subscribing: until then a cancellation only is recorded.
  private var isSubscribed = false
  private var cancelRequested = false
  private let subscription = SingleAssignmentDisposable()

  func start(_ continuation: Continuation, _ source: Observable<Element>) {
    lock.withLock { self.continuation = continuation }
    subscription.setDisposable(
      source.subscribe { event in
        switch event {
        case .next(let element): self.finish(with: .success(element))
        case .completed: self.finish(with: .success(nil))
        case .error(let error): self.finish(with: .failure(error))
        }
      })
    let cancelled = lock.withLock { () -> Bool in
      isSubscribed = true
      return cancelRequested
    }
    if cancelled { finish(with: .failure(CancellationError())) }
  }

  func cancel() {
    let subscribed = lock.withLock { () -> Bool in
      cancelRequested = true
      return isSubscribed
    }
    if subscribed { finish(with: .failure(CancellationError())) }
  }

  private func finish(with result: Result<Element?, Swift.Error>) {
    let waiting = lock.withLock { () -> Continuation? in
      guard !finished else { return nil }
      finished = true
      let waiting = continuation
      continuation = nil
      return waiting
    }
    subscription.dispose()
    waiting?.resume(with: result.map { UncheckedSendable($0) })
  }
}
