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

/// The work one `dispatch` call waits for: its own item plus everything processing it
/// enqueued, recursively.
@usableFromInline
final class StoreRound: @unchecked Sendable {
  // Safety: the variables are only read and written with the owning store's lock held. The
  // continuation is set at creation and resumed exactly once, by the thread that completed
  // the round, after that thread released the lock.
  /// The identity of the blocked thread; 0 for a suspended task.
  @usableFromInline let thread: UInt
  /// Signalled when the round is done or its thread is handed the turn; `nil` for tasks.
  @usableFromInline let condition: Condition?
  @usableFromInline let continuation: CheckedContinuation<Void, Never>?
  /// Items of the round not finished yet.
  @usableFromInline var remaining = 1
  @usableFromInline var isDone = false
  /// Whether the blocked thread was made the processing thread.
  @usableFromInline var isGranted = false

  /// A round whose thread blocks until it is done.
  @usableFromInline
  init(blockingThread thread: UInt) {
    self.thread = thread
    condition = Condition()
    continuation = nil
  }

  /// A round whose task is resumed when it is done.
  @usableFromInline
  init(continuation: CheckedContinuation<Void, Never>) {
    thread = 0
    condition = nil
    self.continuation = continuation
  }
}

/// The dispatch queue of a ``Store`` as a value-type state machine: who processes, what is
/// queued, and who waits. Every method is called with the store's lock held; each returns
/// what the caller must do after releasing the lock.
///
/// The rules, from the store's threading contract:
/// - Work submitted while the store is idle is processed at once by the submitting thread,
///   which becomes the *owner*.
/// - Work submitted by the owner itself (from a middleware, reducer or subscriber) is queued
///   FIFO and belongs to the round of the item being processed.
/// - Work submitted by any other thread is queued in a new round; the thread blocks until the
///   round is done (the owner processes it) or until it is handed the turn.
/// - An owner whose own round is done keeps draining the queue for at most
///   ``handOffBudget`` more items, then hands the turn to the longest-blocked thread, so that
///   no dispatch call is held up indefinitely by other threads' work.
@usableFromInline
struct StoreDispatchStateMachine {
  /// What a submitter does next.
  @usableFromInline
  enum SubmitAction {
    /// Run the work now, inside the owner's current processing (reentrant bookkeeping).
    case runReentrant
    /// Nothing: the work was queued in the current round (reentrant dispatch).
    case enqueued
    /// The work must be queued in a new round (see ``enqueue(_:tag:round:)``).
    case needsRound
  }

  /// What the owner does after finishing an item.
  @usableFromInline
  enum NextAction {
    /// Process this work; then resume `completed` (a round that just finished), if any.
    case process(StoreWork, tag: UInt64, completed: StoreRound?)
    /// Stop processing and return; resume `completed`, and `heir` was handed the turn.
    case stop(completed: StoreRound?, heir: StoreRound?)
  }

  /// Items an owner processes for others after its own round is done before handing the turn
  /// to a blocked thread. Larger values favour throughput; smaller, the owner's latency.
  @usableFromInline static var handOffBudget: Int { 32 }

  /// The identity of the processing thread; 0 while idle, and also while the turn is held
  /// by a thread that claimed it without the lock and has not been recorded yet (see
  /// `Store.gate`).
  @usableFromInline var owner: UInt = 0
  /// The round the owner waits for; `nil` when it took the turn while the store was idle.
  @usableFromInline var ownerRound: StoreRound?
  /// The round of the item being processed; `nil` for the idle-taker's round.
  @usableFromInline var currentRound: StoreRound?
  /// Unfinished items of the idle-taker's round.
  @usableFromInline var inlineRemaining = 0
  /// Items processed since the owner's own round was done.
  @usableFromInline var itemsForOthers = 0
  @usableFromInline var queue: [StoreWorkItem?] = []
  @usableFromInline var head = 0
  /// Rounds whose threads are blocked, oldest first.
  @usableFromInline var blockedRounds: [StoreRound] = []

  @inlinable
  init() {}

  /// Makes `thread` the owner of an idle store, processing an item of its own round.
  ///
  /// An idle machine already has no owner round and no current round (``stop(completed:)``
  /// and ``finishInlineItemIfAlone()`` leave it so), so only the counters are set.
  @inlinable
  mutating func beginInline(thread: UInt) {
    owner = thread
    inlineRemaining = 1
    itemsForOthers = 0
  }

  /// Submits `work` from `thread` while the store is busy (the store claims an idle store
  /// itself, see ``beginInline(thread:)``); `isAsync` when the submitter is a task that must
  /// not be made to wait in place.
  ///
  /// `owner` is 0 here when the turn was claimed without the lock by another thread, which
  /// the machine is told about only when that thread finishes.
  @usableFromInline
  mutating func submit(_ work: StoreWork, tag: UInt64, thread: UInt, isAsync: Bool)
    -> SubmitAction
  {
    if owner == thread && !isAsync {
      if case .run = work { return .runReentrant }
      if let round = currentRound {
        round.remaining += 1
      } else {
        inlineRemaining += 1
      }
      queue.append(StoreWorkItem(work: work, tag: tag, round: currentRound))
      return .enqueued
    }
    return .needsRound
  }

  /// Queues `work` in a new `round`.
  @usableFromInline
  mutating func enqueue(_ work: StoreWork, tag: UInt64, round: StoreRound) {
    queue.append(StoreWorkItem(work: work, tag: tag, round: round))
    if round.condition != nil { blockedRounds.append(round) }
  }

  /// The common end of an item: the owner took the turn while idle, the item was of its own
  /// round, and nothing was queued. Makes the store idle and returns `true`; otherwise changes
  /// nothing and returns `false` (use ``finishItem()``).
  @inlinable
  mutating func finishInlineItemIfAlone() -> Bool {
    guard currentRound == nil, queue.isEmpty else { return false }
    inlineRemaining = 0
    owner = 0
    return true
  }

  /// Records that the owner finished the current item and picks what comes next.
  @usableFromInline
  mutating func finishItem() -> NextAction {
    var completed: StoreRound?
    if let round = currentRound {
      completed = finish(round)
    } else {
      inlineRemaining -= 1
    }
    currentRound = nil
    if head == queue.count {
      return stop(completed: completed)
    }
    return next(completed: completed)
  }

  /// Picks the first item for an owner that was just handed the turn.
  @usableFromInline
  mutating func takeNextAfterHandOff() -> NextAction {
    if head == queue.count { return stop(completed: nil) }
    return next(completed: nil)
  }

  @usableFromInline
  mutating func finish(_ round: StoreRound) -> StoreRound? {
    round.remaining -= 1
    guard round.remaining == 0 else { return nil }
    round.isDone = true
    if round.condition != nil, let index = blockedRounds.firstIndex(where: { $0 === round }) {
      blockedRounds.remove(at: index)
    }
    return round
  }

  @usableFromInline
  mutating func stop(completed: StoreRound?) -> NextAction {
    queue.removeAll(keepingCapacity: queue.count <= 64)
    head = 0
    owner = 0
    ownerRound = nil
    currentRound = nil
    return .stop(completed: completed, heir: nil)
  }

  @usableFromInline
  mutating func next(completed: StoreRound?) -> NextAction {
    let ownRoundDone = ownerRound.map { $0.isDone } ?? (inlineRemaining == 0)
    if ownRoundDone {
      if itemsForOthers >= Self.handOffBudget, let heir = blockedRounds.first {
        owner = heir.thread
        ownerRound = heir
        itemsForOthers = 0
        heir.isGranted = true
        return .stop(completed: completed, heir: heir)
      }
      itemsForOthers += 1
    }
    let item = queue[head]!
    queue[head] = nil
    head += 1
    currentRound = item.round
    return .process(item.work, tag: item.tag, completed: completed)
  }
}

/// The lock-guarded part of a store.
@usableFromInline
struct StoreLockedState {
  @usableFromInline var machine = StoreDispatchStateMachine()
  /// Subscriptions disposed while the store was busy, unregistered between two items.
  @usableFromInline var pendingRemovals: [(subscription: AnyObject, list: StoreSubscriptionList)] =
    []

  @inlinable
  init() {}
}
