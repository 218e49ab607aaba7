import ReactorKitStreams
import XCTest

@testable import ReactorKit

/// The reactor's drain machine on its own: no threads, no reactor; each test drives the
/// machine as the engine would, over a gate in a plain word, and checks what it returns.
///
/// Engine: ReactorDrainMachine.swift.
final class ReactorDrainMachineTests: XCTestCase {
  private typealias Machine = ReactorDrainMachine<Item>

  private enum Item: Equatable {
    case action(Int)
    case mutation(Int)
    case engine(String)
  }

  private let word = AtomicBox<UInt>(Gate.closed)
  private var gate: Gate { Gate(word.atomic) }

  private func wired() -> ReactorLifecycle {
    var lifecycle = ReactorLifecycle()
    XCTAssertTrue(lifecycle.wire())
    return lifecycle
  }

  private func disposed() -> ReactorLifecycle {
    var lifecycle = wired()
    XCTAssertTrue(lifecycle.dispose())
    return lifecycle
  }

  private func submit(
    _ machine: inout Machine, _ item: Item, urgent: Bool = false, inline: Bool = false,
    _ lifecycle: ReactorLifecycle
  ) -> Machine.Submission {
    machine.submitLocked(item, urgent: urgent, inline: inline, lifecycle: lifecycle, gate: gate)
  }

  private func drainAll(_ machine: inout Machine, _ lifecycle: ReactorLifecycle) -> [Item] {
    var items: [Item] = []
    while let item = machine.nextLocked(lifecycle: lifecycle) { items.append(item) }
    return items
  }

  // MARK: - Wiring

  func test_whileWiring_workQueues_andNothingIsScheduled() {
    // given: a core being wired (its gate closed)
    var machine = Machine()
    // when
    let submission = submit(&machine, .action(1), ReactorLifecycle())
    // then
    XCTAssertEqual(submission, .queued)
    XCTAssertTrue(gate.state.isClosed)
    XCTAssertFalse(machine.isEmpty)
  }

  func test_endOfWiring_withQueuedWork_opensTheGateClaimed_andSchedulesADrain() {
    // given
    var machine = Machine()
    _ = submit(&machine, .action(1), ReactorLifecycle())
    // when
    let schedules = machine.wakeLocked(lifecycle: wired(), gate: gate)
    // then
    XCTAssertTrue(schedules)
    XCTAssertEqual(gate.state.description, "busy")
  }

  func test_endOfWiring_withoutWork_opensTheGateIdle() {
    // given
    var machine = Machine()
    // when
    let schedules = machine.wakeLocked(lifecycle: wired(), gate: gate)
    // then
    XCTAssertFalse(schedules)
    XCTAssertTrue(gate.state.isIdle)
  }

  func test_endOfWiring_whileASubscriberIsSentTheFirstState_keepsTheGateClosed() {
    // given: a subscriber added during the wiring is being sent the current state
    var machine = Machine()
    machine.beginWiringDeliveryLocked()
    _ = submit(&machine, .action(1), ReactorLifecycle())
    // when: the wiring ends
    let schedules = machine.wakeLocked(lifecycle: wired(), gate: gate)
    // then: the gate stays closed until the delivery is done, whose end opens it
    XCTAssertFalse(schedules)
    XCTAssertTrue(gate.state.isClosed)
    XCTAssertTrue(machine.endWiringDeliveryLocked(lifecycle: wired(), gate: gate))
    XCTAssertEqual(gate.state.description, "busy")
  }

  func test_endOfADeliveryDuringTheWiring_beforeTheWiringEnds_keepsTheGateClosed() {
    // given
    var machine = Machine()
    machine.beginWiringDeliveryLocked()
    _ = submit(&machine, .action(1), ReactorLifecycle())
    // when
    let schedules = machine.endWiringDeliveryLocked(lifecycle: ReactorLifecycle(), gate: gate)
    // then: the end of the wiring opens it
    XCTAssertFalse(schedules)
    XCTAssertTrue(gate.state.isClosed)
    XCTAssertTrue(machine.wakeLocked(lifecycle: wired(), gate: gate))
  }

  // MARK: - Submitting to a wired core

  func test_submissionToAnIdleCore_claimsTheGate_andTheSecondIsAnnounced() {
    // given
    var machine = Machine()
    let lifecycle = wired()
    gate.openLocked(claiming: false)
    // when
    let first = submit(&machine, .action(1), lifecycle)
    let second = submit(&machine, .action(2), lifecycle)
    // then: the holder's unlocked release fails, so it looks at the queue again
    XCTAssertEqual(first, .queuedAndClaimed)
    XCTAssertEqual(second, .queued)
    XCTAssertEqual(gate.state.description, "busy+announced")
    XCTAssertFalse(gate.tryRelease())
  }

  func test_inlineSubmission_isNotQueued() {
    // given: the draining thread submits outside a state delivery
    var machine = Machine()
    gate.openLocked(claiming: true)
    // when
    let submission = submit(&machine, .mutation(1), urgent: true, inline: true, wired())
    // then
    XCTAssertEqual(submission, .runInline)
    XCTAssertTrue(machine.isEmpty)
    XCTAssertEqual(gate.state.description, "busy")
  }

  func test_inlineIsNotEvaluated_onceDisposed() {
    // given
    var machine = Machine()
    var evaluated = false
    // when
    let submission = machine.submitLocked(
      .mutation(1), urgent: true,
      inline: {
        evaluated = true
        return true
      }(), lifecycle: disposed(), gate: gate)
    // then
    XCTAssertEqual(submission, .dropped)
    XCTAssertFalse(evaluated)
  }

  // MARK: - The drain's pass

  func test_pass_takesMutationsBeforeActions_eachInTheOrderTheyCame() {
    // given: a drain holds the gate; work of both kinds arrives
    var machine = Machine()
    let lifecycle = wired()
    gate.openLocked(claiming: true)
    _ = submit(&machine, .action(1), lifecycle)
    _ = submit(&machine, .mutation(1), urgent: true, lifecycle)
    _ = submit(&machine, .action(2), lifecycle)
    _ = submit(&machine, .engine("reconfigure"), urgent: true, lifecycle)
    // when
    XCTAssertFalse(gate.tryRelease(), "the work was announced")
    let begins = machine.beginPassLocked(lifecycle: lifecycle, gate: gate)
    let items = drainAll(&machine, lifecycle)
    // then: the announcement was taken in; the release succeeds once nothing new came
    XCTAssertTrue(begins)
    XCTAssertEqual(items, [.mutation(1), .engine("reconfigure"), .action(1), .action(2)])
    XCTAssertTrue(gate.tryRelease())
    XCTAssertTrue(gate.state.isIdle)
  }

  func test_workArrivingDuringAPass_isAnnouncedAgain() {
    // given: a pass has begun
    var machine = Machine()
    let lifecycle = wired()
    gate.openLocked(claiming: true)
    _ = submit(&machine, .action(1), lifecycle)
    XCTAssertTrue(machine.beginPassLocked(lifecycle: lifecycle, gate: gate))
    XCTAssertEqual(machine.nextLocked(lifecycle: lifecycle), .action(1))
    // when: more work comes while the item is processed
    let submission = submit(&machine, .action(2), lifecycle)
    // then: the unlocked release fails and the next pass takes it
    XCTAssertEqual(submission, .queued)
    XCTAssertFalse(gate.tryRelease())
    XCTAssertTrue(machine.beginPassLocked(lifecycle: lifecycle, gate: gate))
    XCTAssertEqual(machine.nextLocked(lifecycle: lifecycle), .action(2))
    XCTAssertNil(machine.nextLocked(lifecycle: lifecycle))
  }

  // MARK: - Disposal

  func test_submissionToADisposedCore_isDropped() {
    // given
    var machine = Machine()
    // when
    let submission = submit(&machine, .action(1), disposed())
    // then
    XCTAssertEqual(submission, .dropped)
    XCTAssertTrue(machine.isEmpty)
  }

  func test_disposal_closesTheGate_andTakesEverythingQueued() {
    // given
    var machine = Machine()
    let lifecycle = wired()
    gate.openLocked(claiming: true)
    _ = submit(&machine, .action(1), lifecycle)
    _ = submit(&machine, .mutation(1), urgent: true, lifecycle)
    // when
    var (urgent, actions) = machine.disposeLocked(gate: gate)
    // then
    XCTAssertEqual(urgent.popFirst(), .mutation(1))
    XCTAssertEqual(actions.popFirst(), .action(1))
    XCTAssertTrue(machine.isEmpty)
    XCTAssertTrue(gate.state.isClosed)
  }

  func test_passOfADisposedCore_stops_andReleasesTheGateClosed() {
    // given: a drain holds the gate when the core is disposed
    var machine = Machine()
    gate.openLocked(claiming: true)
    _ = submit(&machine, .action(1), wired())
    _ = machine.disposeLocked(gate: gate)
    // when
    XCTAssertFalse(gate.tryRelease(), "a closed gate is not released without the lock")
    let begins = machine.beginPassLocked(lifecycle: disposed(), gate: gate)
    // then
    XCTAssertFalse(begins)
    XCTAssertEqual(gate.state.description, "closed")
    XCTAssertNil(machine.nextLocked(lifecycle: disposed()))
    XCTAssertFalse(gate.tryClaim())
  }

  func test_nextOfADisposedCore_isNil_evenWithWorkQueued() {
    // given
    var machine = Machine()
    gate.openLocked(claiming: true)
    _ = submit(&machine, .action(1), wired())
    // then
    XCTAssertNil(machine.nextLocked(lifecycle: disposed()))
    XCTAssertFalse(machine.isEmpty)
  }

  // MARK: - Queued subscribers

  func test_removeFirstUrgent_takesTheFirstMatch_andKeepsTheOrderOfTheRest() {
    // given
    var machine = Machine()
    let lifecycle = wired()
    gate.openLocked(claiming: true)
    for item in [Item.engine("a"), .mutation(1), .engine("b"), .engine("a")] {
      _ = submit(&machine, item, urgent: true, lifecycle)
    }
    // when
    let removed = machine.removeFirstUrgentLocked { $0 == .engine("a") }
    let missing = machine.removeFirstUrgentLocked { $0 == .engine("z") }
    // then
    XCTAssertEqual(removed, .engine("a"))
    XCTAssertNil(missing)
    XCTAssertEqual(drainAll(&machine, lifecycle), [.mutation(1), .engine("b"), .engine("a")])
  }
}
