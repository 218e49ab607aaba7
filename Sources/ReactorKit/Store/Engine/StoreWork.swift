/// One unit of work for a store's processing loop.
@usableFromInline
enum StoreWork {
  /// An action dispatched at the top of the middleware chain.
  case dispatch(any Action)
  /// An action that already passed the middleware chain and only needs reducing: a
  /// middleware called its `next` function outside the chain's own processing.
  case reduce(any Action)
  /// Store bookkeeping that must not overlap processing, such as registering a subscriber
  /// and sending it the current value.
  case run(() -> Void)
}

/// A queued ``StoreWork`` with the round that waits for it.
@usableFromInline
struct StoreWorkItem {
  @usableFromInline var work: StoreWork
  /// An identifier given by the submitter (`TestStore` uses it); 0 when none.
  @usableFromInline var tag: UInt64
  /// The round that counts this item; `nil` for the round of the thread that took the turn
  /// while the store was idle.
  @usableFromInline var round: StoreRound?

  @inlinable
  init(work: StoreWork, tag: UInt64, round: StoreRound?) {
    self.work = work
    self.tag = tag
    self.round = round
  }
}

/// The work one `dispatch` or `send` call waits for: its own item plus everything processing
/// it enqueued, recursively.
@usableFromInline
final class StoreRound: @unchecked Sendable {
  // Safety: the variables are only read and written with the owning store's lock held. A
  // continuation is taken out (set to `nil`) under the lock by whoever resumes it, and resumed
  // after the lock is released, so it is resumed at most once.
  /// Signalled when the round is done or handed the turn; `nil` for a suspended task.
  @usableFromInline let condition: Condition?
  /// The suspended task, while it waits; `nil` for a blocked thread, and while the task is on
  /// its way after being resumed.
  @usableFromInline var continuation: CheckedContinuation<StoreResumption, Never>?
  /// Items of the round not finished yet.
  @usableFromInline var remaining = 1
  @usableFromInline var isDone = false

  /// A round whose thread blocks until it is done or handed the turn.
  @usableFromInline
  init() {
    condition = Condition()
    continuation = nil
  }

  /// A round whose task is resumed when it is done or handed the turn (`nil`: the task is
  /// not suspended yet).
  @usableFromInline
  init(continuation: CheckedContinuation<StoreResumption, Never>?) {
    condition = nil
    self.continuation = continuation
  }

  /// Whether a thread blocks in `dispatch` for this round.
  @inlinable
  var isBlockingThread: Bool { condition != nil }

  /// Takes the suspended task's continuation, if it waits right now. Call with the lock held;
  /// resume the result after releasing it.
  @inlinable
  func takeContinuation() -> CheckedContinuation<StoreResumption, Never>? {
    defer { continuation = nil }
    return continuation
  }
}

/// What a task suspended in `send` is resumed with.
@usableFromInline
enum StoreResumption: Sendable {
  /// Its round is done: `send` returns.
  case done
  /// It was handed the turn for this round: it comes back to take it (unless another caller
  /// took the turn first, in which case it waits again).
  case turn(StoreRound)
}
