import XCTest

@testable import ReactorKitStreams

final class DebounceStateMachineTests: XCTestCase {
  func test_next_startsATimerPerElement_andOnlyTheLatestTimerEmits() {
    // given
    var machine = DebounceStateMachine<Int>()
    // when
    let first = machine.next(1)
    let second = machine.next(2)
    // then
    guard case .startTimer(let firstGeneration) = first,
      case .startTimer(let secondGeneration) = second
    else { return XCTFail("Each element should start a timer, got \(first) and \(second).") }
    XCTAssertNotEqual(firstGeneration, secondGeneration)
    XCTAssertNil(machine.timerFired(generation: firstGeneration), "A replaced timer emitted.")
    XCTAssertEqual(machine.timerFired(generation: secondGeneration), 2)
    XCTAssertNil(machine.timerFired(generation: secondGeneration), "An element emitted twice.")
  }

  func test_completed_emitsTheWaitingElementFirst() {
    // given
    var machine = DebounceStateMachine<Int>()
    _ = machine.next(7)
    // when
    let completion = machine.completed()
    // then
    XCTAssertEqual(completion, .some(.some(7)))
    XCTAssertEqual(machine.completed(), .none, "A second completion was not ignored.")
  }

  func test_completed_whileIdle_completesWithoutElement() {
    // given
    var machine = DebounceStateMachine<Int>()
    // when
    let completion = machine.completed()
    // then
    XCTAssertEqual(completion, .some(.none))
  }

  func test_failed_dropsTheWaitingElement_andEndsTheMachine() {
    // given
    var machine = DebounceStateMachine<Int>()
    guard case .startTimer(let generation) = machine.next(3) else {
      return XCTFail("The element should start a timer.")
    }
    // when
    let forwarded = machine.failed()
    // then
    XCTAssertTrue(forwarded)
    XCTAssertNil(machine.timerFired(generation: generation), "The dropped element emitted.")
    XCTAssertFalse(machine.failed(), "A second error was forwarded.")
    guard case .none = machine.next(4) else { return XCTFail("An element after the end.") }
    XCTAssertEqual(machine.completed(), .none)
  }
}
