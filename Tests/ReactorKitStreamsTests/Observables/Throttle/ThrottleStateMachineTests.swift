import Foundation
import XCTest

@testable import ReactorKitStreams

final class ThrottleStateMachineTests: XCTestCase {
  private let start = Date(timeIntervalSinceReferenceDate: 1_000)

  func test_next_firstElementIsEmittedAtOnce() {
    // given
    var machine = ThrottleStateMachine<Int>(dueTime: 1, latest: true)
    // when
    let action = machine.next(1, now: start)
    // then
    guard case .emit(1) = action else { return XCTFail("Expected .emit(1), got \(action).") }
  }

  func test_next_insideTheWindow_keepsTheLatest_andTheTimerEmitsIt() {
    // given
    var machine = ThrottleStateMachine<Int>(dueTime: 1, latest: true)
    _ = machine.next(1, now: start)
    // when: two elements inside the window
    let second = machine.next(2, now: start + 0.25)
    let third = machine.next(3, now: start + 0.5)
    // then: one timer for the rest of the window; the latest element waits for it
    guard case .startTimer(let delay, let generation) = second else {
      return XCTFail("Expected a timer, got \(second).")
    }
    XCTAssertEqual(delay, 0.75, accuracy: 1e-9)
    guard case .none = third else { return XCTFail("A second timer was started: \(third).") }
    guard
      case .emit(3, thenComplete: false) = machine.timerFired(
        generation: generation, now: start + 1)
    else { return XCTFail("The timer should emit the latest element.") }
  }

  func test_next_withoutLatest_dropsElementsInsideTheWindow() {
    // given
    var machine = ThrottleStateMachine<Int>(dueTime: 1, latest: false)
    _ = machine.next(1, now: start)
    // when
    let inside = machine.next(2, now: start + 0.5)
    let after = machine.next(3, now: start + 1)
    // then
    guard case .none = inside else { return XCTFail("Expected .none, got \(inside).") }
    guard case .emit(3) = after else { return XCTFail("Expected .emit(3), got \(after).") }
  }

  func test_completed_waitsForTheWaitingElement_thenCompletes() {
    // given
    var machine = ThrottleStateMachine<Int>(dueTime: 1, latest: true)
    _ = machine.next(1, now: start)
    guard case .startTimer(_, let generation) = machine.next(2, now: start + 0.5) else {
      return XCTFail("Expected a timer.")
    }
    // when
    let completed = machine.completed()
    // then
    guard case .waitForTimer = completed else { return XCTFail("Got \(completed).") }
    guard
      case .emit(2, thenComplete: true) = machine.timerFired(generation: generation, now: start + 1)
    else { return XCTFail("The waiting element should be emitted, then the completion.") }
    guard case .none = machine.completed() else { return XCTFail("Completed twice.") }
  }

  func test_completed_withNothingWaiting_completesAtOnce() {
    // given
    var machine = ThrottleStateMachine<Int>(dueTime: 1, latest: true)
    _ = machine.next(1, now: start)
    // when
    let completed = machine.completed()
    // then
    guard case .complete = completed else { return XCTFail("Got \(completed).") }
  }

  func test_failed_dropsTheWaitingElement_andAStaleTimerDoesNothing() {
    // given
    var machine = ThrottleStateMachine<Int>(dueTime: 1, latest: true)
    _ = machine.next(1, now: start)
    guard case .startTimer(_, let generation) = machine.next(2, now: start + 0.5) else {
      return XCTFail("Expected a timer.")
    }
    // when
    let forwarded = machine.failed()
    // then
    XCTAssertTrue(forwarded)
    XCTAssertFalse(machine.failed(), "A second error was forwarded.")
    guard case .none = machine.timerFired(generation: generation, now: start + 1) else {
      return XCTFail("The dropped element was emitted.")
    }
  }
}
