import ReactorKitStreams

/// Who holds a store's turn, what is queued for it and who waits, as a closed state machine.
///
/// Every method is called with the store's lock held, switches over every state, changes the
/// state and returns what the caller must do next; the caller (``StoreCore``) does it after
/// releasing the lock. The machine runs no user code, touches no thread and never blocks, so
/// it is tested on its own (`StoreDispatchStateMachineTests`).
///
/// The rules, from the store's threading contract:
/// - Work submitted while the store is idle is processed at once by the submitting thread,
///   which claims the turn; the machine learns about such a turn only when someone queues
///   work for it (``beginInline(thread:)``).
/// - Work submitted by the turn holder itself (from a middleware, the reducer or a
///   subscriber) is queued FIFO and belongs to the round of the item in progress.
/// - Work submitted by any other thread or task is queued in a new round, which waits until
///   it is done (the holder processes it) or until it is handed the turn.
/// - A holder whose own round is done processes at most ``handOffBudget`` items for others,
///   then hands the turn to the longest-waiting blocked thread, or, when no thread is
///   blocked, to the longest-waiting task, and returns. So no caller, blocked thread or
///   suspended task, waits for more than a bounded number of others' items, however long
///   the others keep sending.
/// - A turn being handed off belongs to whoever comes first: the heir, or any caller that
///   submits work meanwhile (which queues its work behind the rest and processes in FIFO
///   order). A store never waits for one particular task to be scheduled.
@usableFromInline
struct StoreDispatchStateMachine {
  /// The round the turn holder's own work belongs to.
  @usableFromInline
  enum OwnRound {
    /// The holder claimed an idle store; this many items of its work are not finished.
    case inline(remaining: Int)
    /// The holder was handed the turn, or took it over, while this round waited.
    case waited(StoreRound)
  }

  /// The turn of the thread processing right now.
  @usableFromInline
  struct Turn {
    /// The identity of the processing thread.
    @usableFromInline var thread: UInt
    @usableFromInline var own: OwnRound
    /// The round of the item in progress; `nil` for an item of an ``OwnRound/inline(remaining:)``
    /// round.
    @usableFromInline var current: StoreRound?
    /// Items processed since the holder's own round was done.
    @usableFromInline var itemsForOthers: Int

    @inlinable
    init(thread: UInt, own: OwnRound) {
      self.thread = thread
      self.own = own
      current = nil
      itemsForOthers = 0
    }

    /// Whether every item of the holder's own round is finished.
    @inlinable
    var isOwnRoundDone: Bool {
      switch own {
      case .inline(let remaining): remaining == 0
      case .waited(let round): round.isDone
      }
    }
  }

  /// Work queued for the turn holder, and the rounds waiting for it.
  @usableFromInline
  struct Backlog {
    @usableFromInline var queue = Queue<StoreWorkItem>()
    /// Rounds not done, oldest first, other than the holder's own round and the heir's.
    @usableFromInline var waiting: [StoreRound] = []

    @inlinable
    init() {}

    /// Queues `item` for a new `round` that waits for it.
    @inlinable
    mutating func append(_ item: StoreWorkItem, waiting round: StoreRound) {
      queue.append(item)
      waiting.append(round)
    }

    /// The round to hand the turn to: the longest-blocked thread, else the longest-waiting
    /// task.
    @inlinable
    mutating func removeHeir() -> StoreRound? {
      if let index = waiting.firstIndex(where: { $0.isBlockingThread }) {
        return waiting.remove(at: index)
      }
      return waiting.isEmpty ? nil : waiting.removeFirst()
    }
  }

  @usableFromInline
  enum State {
    /// Nothing is queued and no one waits. The turn is free, or held by a thread that
    /// claimed it without the lock (the gate says which).
    case idle
    /// A thread claimed the turn without the lock and is processing its own item; others
    /// queued work for it, which it will find when it finishes.
    case claimedWithoutLock(Backlog)
    /// A thread the machine knows is processing.
    case processing(Turn, Backlog)
    /// The last holder stopped and handed the turn to `heir`, which is on its way; any
    /// caller that submits first takes the turn instead.
    case handingOff(heir: StoreRound, Backlog)
    /// Only while a method changes the state in place (no copy of the backlog is made).
    case modifying
  }

  /// What a submitter does next (see ``submit(_:tag:thread:isAsync:)``).
  @usableFromInline
  enum SubmitAction {
    /// Run the work now, inside the holder's current processing (reentrant bookkeeping).
    case runReentrant
    /// Nothing: the work was queued in the current round (reentrant dispatch).
    case enqueued
    /// The work must be queued in a new round (see ``enqueue(_:tag:round:thread:)``).
    case needsRound
  }

  /// What a caller whose work was queued in a new round does next.
  @usableFromInline
  enum WaitAction {
    /// Wait: block on the round's condition, or stay suspended, then ask again
    /// (``heirArrived(_:thread:)``).
    case wait
    /// The round is done: return.
    case done
    /// The caller now holds the turn: carry out this action.
    case takeTurn(NextAction)
  }

  /// What the turn holder does next.
  @usableFromInline
  enum NextAction {
    /// Process this work; first wake `completed` (a round that just finished), if any.
    case process(StoreWork, tag: UInt64, completed: StoreRound?)
    /// Stop processing and return; wake `completed`, if any. Without an `heir` the store is
    /// idle and the gate must be opened; otherwise wake the heir, which was handed the turn.
    case stop(completed: StoreRound?, heir: StoreRound?)
  }

  /// Items a holder processes for others after its own round is done before it hands the
  /// turn on. Larger values favour throughput; smaller, the latency of waiting callers.
  @usableFromInline static var handOffBudget: Int { 32 }

  @usableFromInline var state: State = .idle

  @inlinable
  init() {}

  /// Whether the machine knows who holds the turn: a thread processing, or an heir.
  @inlinable
  var isTurnRecorded: Bool {
    switch state {
    case .processing, .handingOff: true
    case .idle, .claimedWithoutLock: false
    case .modifying: preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Records that `thread`, which claimed the turn without the lock, processes an item of its
  /// own inline round.
  @inlinable
  mutating func beginInline(thread: UInt) {
    switch state {
    case .idle:
      state = .processing(Turn(thread: thread, own: .inline(remaining: 1)), Backlog())
    case .claimedWithoutLock(let backlog):
      state = .processing(Turn(thread: thread, own: .inline(remaining: 1)), backlog)
    case .processing, .handingOff:
      preconditionFailure("StoreDispatchStateMachine: the turn is already recorded")
    case .modifying:
      preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Submits `work` from `thread` while the turn is held; `isAsync` when the submitter is a
  /// task that must not be made to wait in place.
  @usableFromInline
  mutating func submit(_ work: StoreWork, tag: UInt64, thread: UInt, isAsync: Bool)
    -> SubmitAction
  {
    switch state {
    case .processing(var turn, var backlog) where turn.thread == thread && !isAsync:
      if case .run = work { return .runReentrant }
      state = .modifying
      if let round = turn.current {
        round.remaining += 1
      } else if case .inline(let remaining) = turn.own {
        turn.own = .inline(remaining: remaining + 1)
      } else {
        preconditionFailure("StoreDispatchStateMachine: an inline item under a handed turn")
      }
      backlog.queue.append(StoreWorkItem(work: work, tag: tag, round: turn.current))
      state = .processing(turn, backlog)
      return .enqueued
    case .idle, .claimedWithoutLock, .processing, .handingOff:
      return .needsRound
    case .modifying:
      preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Queues `work` in a new `round` for `thread`. The round waits, unless the turn was being
  /// handed off: then `thread` takes it, and the heir waits again, first in line.
  @usableFromInline
  mutating func enqueue(_ work: StoreWork, tag: UInt64, round: StoreRound, thread: UInt)
    -> WaitAction
  {
    let item = StoreWorkItem(work: work, tag: tag, round: round)
    switch state {
    case .idle:
      // The caller found the gate busy: a thread claimed it without the lock.
      var backlog = Backlog()
      backlog.append(item, waiting: round)
      state = .claimedWithoutLock(backlog)
      return .wait
    case .claimedWithoutLock(var backlog):
      state = .modifying
      backlog.append(item, waiting: round)
      state = .claimedWithoutLock(backlog)
      return .wait
    case .processing(let turn, var backlog):
      state = .modifying
      backlog.append(item, waiting: round)
      state = .processing(turn, backlog)
      return .wait
    case .handingOff(let heir, var backlog):
      state = .modifying
      backlog.queue.append(item)
      backlog.waiting.insert(heir, at: 0)
      return .takeTurn(next(Turn(thread: thread, own: .waited(round)), backlog, completed: nil))
    case .modifying:
      preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Asks, for a waiting `round` whose caller runs on `thread`, whether it is done, was
  /// handed the turn (which it then takes), or waits on.
  @usableFromInline
  mutating func heirArrived(_ round: StoreRound, thread: UInt) -> WaitAction {
    if round.isDone { return .done }
    switch state {
    case .handingOff(let heir, let backlog) where heir === round:
      state = .modifying
      return .takeTurn(next(Turn(thread: thread, own: .waited(round)), backlog, completed: nil))
    case .idle, .claimedWithoutLock, .processing, .handingOff:
      return .wait
    case .modifying:
      preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// The common end of an item: the holder claimed an idle store, the item was of its own
  /// round, and nothing was queued. Makes the machine idle and returns `true`; otherwise
  /// changes nothing and returns `false` (use ``finishItem()``).
  @inlinable
  mutating func finishInlineItemIfAlone() -> Bool {
    switch state {
    case .processing(let turn, let backlog):
      guard turn.current == nil, backlog.queue.isEmpty else { return false }
      state = .idle
      return true
    case .idle, .claimedWithoutLock, .handingOff:
      preconditionFailure("StoreDispatchStateMachine: no item in progress")
    case .modifying:
      preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Records that the holder finished the item in progress and picks what comes next.
  @usableFromInline
  mutating func finishItem() -> NextAction {
    switch state {
    case .processing(var turn, var backlog):
      state = .modifying
      var completed: StoreRound?
      if let round = turn.current {
        round.remaining -= 1
        if round.remaining == 0 {
          round.isDone = true
          completed = round
          if let index = backlog.waiting.firstIndex(where: { $0 === round }) {
            backlog.waiting.remove(at: index)
          }
        }
      } else if case .inline(let remaining) = turn.own {
        turn.own = .inline(remaining: remaining - 1)
      } else {
        preconditionFailure("StoreDispatchStateMachine: an inline item under a handed turn")
      }
      turn.current = nil
      return next(turn, backlog, completed: completed)
    case .idle, .claimedWithoutLock, .handingOff:
      preconditionFailure("StoreDispatchStateMachine: no item in progress")
    case .modifying:
      preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Picks the next item for `turn`, hands the turn off, or stops. The state is `.modifying`
  /// on entry.
  @usableFromInline
  mutating func next(_ turn: Turn, _ backlog: Backlog, completed: StoreRound?) -> NextAction {
    var turn = turn
    var backlog = backlog
    if backlog.queue.isEmpty {
      // Every queued item is finished, so every round is done and no one waits.
      assert(backlog.waiting.isEmpty, "StoreDispatchStateMachine: a round waits for nothing")
      state = .idle
      return .stop(completed: completed, heir: nil)
    }
    if turn.isOwnRoundDone {
      if turn.itemsForOthers >= Self.handOffBudget, let heir = backlog.removeHeir() {
        state = .handingOff(heir: heir, backlog)
        return .stop(completed: completed, heir: heir)
      }
      turn.itemsForOthers += 1
    }
    guard let item = backlog.queue.popFirst() else {
      preconditionFailure("StoreDispatchStateMachine: an empty queue yielded nothing")
    }
    turn.current = item.round
    state = .processing(turn, backlog)
    return .process(item.work, tag: item.tag, completed: completed)
  }

  // MARK: - Diagnostics

  /// Items queued and not started.
  @usableFromInline
  var queuedCount: Int {
    switch state {
    case .idle: 0
    case .claimedWithoutLock(let backlog), .processing(_, let backlog),
      .handingOff(_, let backlog):
      backlog.queue.count
    case .modifying: preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Threads blocked in `dispatch`, the heir included.
  @usableFromInline
  var blockedThreadCount: Int {
    switch state {
    case .idle: 0
    case .claimedWithoutLock(let backlog), .processing(_, let backlog):
      backlog.waiting.count(where: \.isBlockingThread)
    case .handingOff(let heir, let backlog):
      backlog.waiting.count(where: \.isBlockingThread) + (heir.isBlockingThread ? 1 : 0)
    case .modifying: preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }

  /// Slots the queue's storage holds.
  @usableFromInline
  var queueSlotCount: Int {
    switch state {
    case .idle: 0
    case .claimedWithoutLock(let backlog), .processing(_, let backlog),
      .handingOff(_, let backlog):
      backlog.queue.slotCount
    case .modifying: preconditionFailure("StoreDispatchStateMachine: modifying")
    }
  }
}
