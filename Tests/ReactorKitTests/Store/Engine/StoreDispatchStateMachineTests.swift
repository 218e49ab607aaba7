import XCTest

@testable import ReactorKit

/// The store's dispatch machine on its own: no threads, no store; each test drives the
/// machine as the executor would and checks the actions it returns.
final class StoreDispatchStateMachineTests: XCTestCase {
  private typealias Machine = StoreDispatchStateMachine

  private let owner: UInt = 1
  private let other: UInt = 2

  // MARK: - Inline turns

  func test_inlineTurn_aloneFinishesIdle() {
    // given
    var machine = Machine()
    machine.beginInline(thread: owner)
    // when
    let finished = machine.finishInlineItemIfAlone()
    // then
    XCTAssertTrue(finished)
    XCTAssertTrue(isIdle(machine))
    XCTAssertFalse(machine.isTurnRecorded)
  }

  func test_reentrantDispatch_isQueuedInTheOwnRound_andProcessedAfterTheCurrentItem() {
    // given
    var machine = Machine()
    machine.beginInline(thread: owner)
    // when
    let submitted = machine.submit(dispatch, tag: 7, thread: owner, isAsync: false)
    // then
    XCTAssertEqual(describe(submitted), "enqueued")
    XCTAssertFalse(machine.finishInlineItemIfAlone(), "queued work keeps the turn")
    XCTAssertEqual(describe(machine.finishItem()), "process 7")
    XCTAssertEqual(describe(machine.finishItem()), "stop")
    XCTAssertTrue(isIdle(machine))
  }

  func test_reentrantRun_runsAtOnce() {
    // given
    var machine = Machine()
    machine.beginInline(thread: owner)
    // when
    let submitted = machine.submit(.run {}, tag: 0, thread: owner, isAsync: false)
    // then
    XCTAssertEqual(describe(submitted), "runReentrant")
    XCTAssertEqual(machine.queuedCount, 0)
  }

  func test_sendFromTheOwnersThread_waitsInItsOwnRound() {
    // given
    var machine = Machine()
    machine.beginInline(thread: owner)
    // when
    let submitted = machine.submit(dispatch, tag: 1, thread: owner, isAsync: true)
    // then
    XCTAssertEqual(describe(submitted), "needsRound")
  }

  // MARK: - Other callers

  func test_otherThread_waitsForItsRound_whichCompletesWhenItsItemIsFinished() {
    // given
    var machine = Machine()
    machine.beginInline(thread: owner)
    let round = StoreRound()
    // when
    XCTAssertEqual(
      describe(machine.submit(dispatch, tag: 1, thread: other, isAsync: false)), "needsRound")
    let enqueued = machine.enqueue(dispatch, tag: 1, round: round, thread: other)
    // then
    XCTAssertEqual(describe(enqueued), "wait")
    XCTAssertEqual(machine.queueDiagnostics, [1, 1])
    XCTAssertEqual(describe(machine.heirArrived(round, thread: other)), "wait")
    XCTAssertEqual(describe(machine.finishItem()), "process 1")
    guard case .stop(let completed, let heir) = machine.finishItem() else {
      return XCTFail("expected stop")
    }
    XCTAssertTrue(completed === round)
    XCTAssertNil(heir)
    XCTAssertTrue(round.isDone)
    XCTAssertEqual(describe(machine.heirArrived(round, thread: other)), "done")
    XCTAssertTrue(isIdle(machine))
  }

  func test_workQueuedForATurnClaimedWithoutTheLock_waitsUntilTheMachineLearnsOfIt() {
    // given: the gate is held by a thread the machine does not know
    var machine = Machine()
    let round = StoreRound()
    // when
    let enqueued = machine.enqueue(dispatch, tag: 3, round: round, thread: other)
    // then
    XCTAssertEqual(describe(enqueued), "wait")
    XCTAssertFalse(machine.isTurnRecorded)
    guard case .claimedWithoutLock = machine.state else { return XCTFail("\(machine.state)") }
    machine.beginInline(thread: owner)
    XCTAssertTrue(machine.isTurnRecorded)
    XCTAssertFalse(machine.finishInlineItemIfAlone())
    XCTAssertEqual(describe(machine.finishItem()), "process 3")
    XCTAssertEqual(describe(machine.finishItem()), "stop completed")
  }

  func test_roundOfAnotherThread_includesWhatItsItemQueues() {
    // given: another thread's item is in progress and dispatches reentrantly... from the
    // owner, which processes it
    var machine = Machine()
    machine.beginInline(thread: owner)
    let round = StoreRound()
    _ = machine.enqueue(dispatch, tag: 1, round: round, thread: other)
    XCTAssertEqual(describe(machine.finishItem()), "process 1")
    // when
    XCTAssertEqual(
      describe(machine.submit(dispatch, tag: 2, thread: owner, isAsync: false)), "enqueued")
    // then: the round is done only after its follow-up
    XCTAssertEqual(describe(machine.finishItem()), "process 2")
    XCTAssertFalse(round.isDone)
    XCTAssertEqual(describe(machine.finishItem()), "stop completed")
    XCTAssertTrue(round.isDone)
  }

  // MARK: - Hand-off

  func test_ownerDoneWithItsRound_handsOffAfterTheBudget_toTheBlockedThreadBeforeOlderTasks() {
    // given: tasks queued before a blocked thread, more than the budget
    var machine = Machine()
    machine.beginInline(thread: owner)
    let budget = Machine.handOffBudget
    let tasks = (0..<(budget + 1)).map { _ in StoreRound(continuation: nil) }
    for (index, round) in tasks.enumerated() {
      _ = machine.enqueue(dispatch, tag: UInt64(100 + index), round: round, thread: 0)
    }
    let blocked = StoreRound()
    _ = machine.enqueue(dispatch, tag: 1, round: blocked, thread: other)
    // when: the owner finishes its item and processes for others
    var processed = 0
    var next = machine.finishItem()
    while case .process = next {
      processed += 1
      next = machine.finishItem()
    }
    // then
    guard case .stop(_, let heir) = next else { return XCTFail("expected stop") }
    XCTAssertEqual(processed, budget)
    XCTAssertTrue(heir === blocked)
    guard case .handingOff = machine.state else { return XCTFail("\(machine.state)") }
    XCTAssertTrue(machine.isTurnRecorded)
    // the heir takes the turn and processes FIFO up to its own item
    guard case .takeTurn(let first) = machine.heirArrived(blocked, thread: other) else {
      return XCTFail("the heir must take the turn")
    }
    XCTAssertEqual(describe(first), "process 132")
    XCTAssertEqual(describe(machine.finishItem()), "process 1 completed")
    XCTAssertFalse(blocked.isDone)
    _ = machine.finishItem()
    XCTAssertTrue(blocked.isDone)
  }

  func test_withoutBlockedThreads_theTurnIsHandedToTheLongestWaitingTask() {
    // given
    var machine = Machine()
    machine.beginInline(thread: owner)
    let tasks = (0..<(Machine.handOffBudget + 2)).map { _ in StoreRound(continuation: nil) }
    for (index, round) in tasks.enumerated() {
      _ = machine.enqueue(dispatch, tag: UInt64(index), round: round, thread: 0)
    }
    // when
    var next = machine.finishItem()
    while case .process = next { next = machine.finishItem() }
    // then: the first task still waiting (the first 32 are done) is the heir
    guard case .stop(_, let heir) = next else { return XCTFail("expected stop") }
    XCTAssertTrue(heir === tasks[Machine.handOffBudget])
    XCTAssertEqual(tasks.filter(\.isDone).count, Machine.handOffBudget)
  }

  func test_callerArrivingWhileTheTurnIsHandedOff_takesIt_andTheHeirWaitsFirstInLine() {
    // given: a turn handed to a task that has not come back yet
    var machine = Machine()
    let (heir, rest) = handOff(&machine, tasks: Machine.handOffBudget + 3)
    // when: a thread submits first
    let late = StoreRound()
    XCTAssertEqual(
      describe(machine.submit(dispatch, tag: 9, thread: other, isAsync: false)), "needsRound")
    let enqueued = machine.enqueue(dispatch, tag: 9, round: late, thread: other)
    // then: it takes the turn and processes in FIFO order, the heir's item first
    guard case .takeTurn(let first) = enqueued else { return XCTFail("\(enqueued)") }
    XCTAssertEqual(describe(first), "process \(Machine.handOffBudget)")
    XCTAssertEqual(describe(machine.heirArrived(heir, thread: 5)), "wait")
    XCTAssertEqual(describe(machine.finishItem()), "process \(Machine.handOffBudget + 1) completed")
    XCTAssertTrue(heir.isDone)
    XCTAssertEqual(describe(machine.heirArrived(heir, thread: 5)), "done")
    XCTAssertEqual(describe(machine.finishItem()), "process \(Machine.handOffBudget + 2) completed")
    XCTAssertEqual(describe(machine.finishItem()), "process 9 completed")
    XCTAssertEqual(describe(machine.finishItem()), "stop completed")
    XCTAssertTrue(rest.allSatisfy(\.isDone))
    XCTAssertTrue(late.isDone)
    XCTAssertTrue(isIdle(machine))
  }

  func test_roundsOtherThanTheHeir_keepWaitingWhileTheTurnIsHandedOff() {
    // given
    var machine = Machine()
    let (_, rest) = handOff(&machine, tasks: Machine.handOffBudget + 3)
    // when / then
    XCTAssertEqual(describe(machine.heirArrived(rest[0], thread: 6)), "wait")
    XCTAssertEqual(
      describe(machine.submit(.run {}, tag: 0, thread: owner, isAsync: false)), "needsRound")
  }

  // MARK: - Bounds under sustained load

  func test_sustainedSends_blockedThreadWaitsABoundedNumberOfItems_andTheQueueStaysSmall() {
    // given: eight tasks that send again as soon as their round is done, and an owner
    var machine = Machine()
    machine.beginInline(thread: owner)
    let senders = 8
    var taskOfRound: [ObjectIdentifier: Int] = [:]
    /// Queues a new round for `task`; returns what its caller must do.
    func send(_ task: Int) -> Machine.WaitAction {
      let round = StoreRound(continuation: nil)
      taskOfRound[ObjectIdentifier(round)] = task
      return machine.enqueue(dispatch, tag: UInt64(task), round: round, thread: 0)
    }
    for task in 0..<senders { XCTAssertEqual(describe(send(task)), "wait") }
    // when: after a while a thread blocks; the load goes on
    var processedWhileBlocked = 0
    var blocked: StoreRound?
    var largestSlots = 0
    var handOffs = 0
    var next = machine.finishItem()
    for step in 0..<5_000 {
      largestSlots = max(largestSlots, machine.queueSlotCount)
      if step == 1_000 {
        blocked = StoreRound()
        XCTAssertEqual(
          describe(machine.enqueue(dispatch, tag: 999, round: blocked!, thread: other)), "wait")
      }
      switch next {
      case .process(_, _, let completed):
        // A task whose round is done sends again at once (the store is busy: it waits)
        if let completed, let task = taskOfRound[ObjectIdentifier(completed)] {
          XCTAssertEqual(describe(send(task)), "wait")
        }
        if let blocked, !blocked.isDone { processedWhileBlocked += 1 }
        next = machine.finishItem()
      case .stop(let completed, let heir):
        guard let heir else { return XCTFail("the load never lets the store go idle") }
        handOffs += 1
        // The task whose round is done sends again and, arriving while the turn is handed
        // off, takes it; or the heir comes back first
        if let completed, let task = taskOfRound[ObjectIdentifier(completed)],
          case .takeTurn(let first) = send(task)
        {
          next = first
        } else if case .takeTurn(let first) = machine.heirArrived(heir, thread: 3) {
          next = first
        } else {
          return XCTFail("an heir that comes back must take the turn")
        }
      }
    }
    // then
    XCTAssertGreaterThan(handOffs, 100)
    XCTAssertTrue(blocked?.isDone ?? false, "the blocked thread's round never finished")
    XCTAssertLessThanOrEqual(processedWhileBlocked, Machine.handOffBudget + 2 * (senders + 1))
    XCTAssertLessThanOrEqual(largestSlots, 2 * (64 + senders + 1))
  }

  // MARK: - Helpers

  private var dispatch: StoreWork { .dispatch(StoreCounterAction.increment) }

  /// Makes an owner process `tasks` task rounds until it hands the turn off; returns the heir
  /// and the rounds still queued behind it.
  private func handOff(_ machine: inout Machine, tasks: Int) -> (StoreRound, [StoreRound]) {
    machine.beginInline(thread: owner)
    let rounds = (0..<tasks).map { _ in StoreRound(continuation: nil) }
    for (index, round) in rounds.enumerated() {
      _ = machine.enqueue(dispatch, tag: UInt64(index), round: round, thread: 0)
    }
    var next = machine.finishItem()
    while case .process = next { next = machine.finishItem() }
    guard case .stop(_, let heir?) = next else {
      XCTFail("expected a hand-off")
      return (rounds[0], [])
    }
    return (heir, Array(rounds.drop(while: { $0 !== heir }).dropFirst()))
  }

  private func isIdle(_ machine: Machine) -> Bool {
    if case .idle = machine.state { return true }
    return false
  }

  private func describe(_ action: Machine.SubmitAction) -> String {
    switch action {
    case .runReentrant: "runReentrant"
    case .enqueued: "enqueued"
    case .needsRound: "needsRound"
    }
  }

  private func describe(_ action: Machine.WaitAction) -> String {
    switch action {
    case .wait: "wait"
    case .done: "done"
    case .takeTurn(let next): "takeTurn \(describe(next))"
    }
  }

  private func describe(_ action: Machine.NextAction) -> String {
    switch action {
    case .process(_, let tag, let completed):
      "process \(tag)" + (completed == nil ? "" : " completed")
    case .stop(let completed, let heir):
      "stop" + (completed == nil ? "" : " completed") + (heir == nil ? "" : " heir")
    }
  }
}

extension StoreDispatchStateMachine {
  /// Queued items and blocked threads, for comparisons.
  fileprivate var queueDiagnostics: [Int] { [queuedCount, blockedThreadCount] }
}
