import XCTest

@testable import ReactorKitStreams

final class GateTests: XCTestCase {
  private let box = AtomicBox<UInt>(0)
  private var gate: Gate { Gate(box.atomic) }

  func test_gate_claimAndReleaseWithoutContention() {
    // given
    XCTAssertTrue(gate.isIdle)
    // when
    let claimed = gate.tryClaim()
    let claimedTwice = gate.tryClaim()
    // then
    XCTAssertTrue(claimed)
    XCTAssertFalse(claimedTwice)
    XCTAssertEqual(gate.state, Gate.State(bits: Gate.busy))
    XCTAssertTrue(gate.tryRelease())
    XCTAssertTrue(gate.isIdle)
  }

  func test_gate_releaseFailsAfterAnnouncement() {
    // given
    XCTAssertTrue(gate.tryClaim())
    // when: work is queued for the holder
    let announcement = gate.claimOrAnnounceLocked()
    // then: the holder cannot leave without looking at the queue
    XCTAssertEqual(announcement, .announced)
    XCTAssertTrue(gate.state.isAnnounced)
    XCTAssertEqual(gate.claimOrAnnounceLocked(), .announced)
    XCTAssertFalse(gate.tryRelease())
    gate.clearAnnouncementLocked()
    XCTAssertEqual(gate.state, Gate.State(bits: Gate.busy))
    XCTAssertTrue(gate.tryRelease())
    XCTAssertTrue(gate.isIdle)
  }

  func test_gate_announcingOnIdleGateClaims() {
    // when
    let announcement = gate.claimOrAnnounceLocked()
    // then
    XCTAssertEqual(announcement, .claimed)
    XCTAssertEqual(gate.state, Gate.State(bits: Gate.busy))
  }

  func test_gate_releaseLockedKeepsClosed() {
    // given: a holder whose engine is closed meanwhile, with work announced
    XCTAssertTrue(gate.tryClaim())
    XCTAssertEqual(gate.claimOrAnnounceLocked(), .announced)
    let before = gate.close()
    // then
    XCTAssertEqual(before, Gate.State(bits: Gate.busy | Gate.announced))
    XCTAssertFalse(gate.tryRelease())
    gate.releaseLocked()
    XCTAssertEqual(gate.state, Gate.State(bits: Gate.closed))
    XCTAssertFalse(gate.tryClaim())
    XCTAssertEqual(gate.claimOrAnnounceLocked(), .closed)
  }

  func test_gate_openClaimingOrIdle() {
    // given: a gate created closed (a reactor engine before it is wired)
    let storage = UnsafeMutableRawPointer.allocate(
      byteCount: MemoryLayout<UInt>.size, alignment: MemoryLayout<UInt>.alignment)
    defer { unsafe storage.deallocate() }
    let closedGate = unsafe Gate.initialize(at: storage, closed: true)
    XCTAssertEqual(closedGate.state, Gate.State(bits: Gate.closed))
    XCTAssertFalse(closedGate.tryClaim())
    // when
    closedGate.openLocked(claiming: true)
    // then
    XCTAssertEqual(closedGate.state, Gate.State(bits: Gate.busy))
    closedGate.close()
    closedGate.releaseLocked()
    closedGate.openLocked(claiming: false)
    XCTAssertTrue(closedGate.isIdle)
  }

  func test_gate_claimLockedWithoutContention() {
    XCTAssertTrue(gate.tryClaimLockedWithoutContention())
    XCTAssertFalse(gate.tryClaimLockedWithoutContention())
    XCTAssertTrue(gate.tryRelease())
  }

  func test_gate_closeKeepsTheHolder() {
    // given
    XCTAssertTrue(gate.tryClaim())
    // when
    gate.close()
    // then: the holder's unlocked release fails, it releases under the lock
    XCTAssertTrue(gate.state.isBusy)
    XCTAssertFalse(gate.tryRelease())
    gate.releaseLocked()
    XCTAssertEqual(gate.state.description, "closed")
  }

  func test_gate_stateDescriptionNamesTheBits() {
    XCTAssertEqual(Gate.State(bits: 0).description, "idle")
    XCTAssertEqual(
      Gate.State(bits: Gate.busy | Gate.announced | Gate.closed).description,
      "busy+announced+closed")
  }
}
