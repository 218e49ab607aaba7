import CounterKit
import ExampleSupport
import ReactorKit
import ReactorKitTesting
import XCTest

final class CounterScreenTests: ResourceTestCase {
  func test_perform_increase_isBusyUntilTheDelayEnds() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let screen = makeScreen(scheduler: scheduler)
    var changes = 0
    screen.onChange = { changes += 1 }
    // when
    _ = screen.perform(ScriptCommand("increase")!)
    let busy = screen.isIdle
    let loadingLines = screen.render(.script)
    scheduler.start()
    // then
    XCTAssertFalse(busy)
    XCTAssertEqual(loadingLines, ["Counter  (-5…5)", "value: 0  (loading…)"])
    XCTAssertTrue(screen.isIdle)
    XCTAssertEqual(screen.render(.script), ["Counter  (-5…5)", "value: 1"])
    XCTAssertGreaterThanOrEqual(changes, 2)
  }

  func test_perform_atTheLimit_showsTheAlertUntilTheNextCommand() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let screen = makeScreen(scheduler: scheduler, value: 5)
    // when
    _ = screen.perform(ScriptCommand("+")!)
    let withAlert = screen.render(.script)
    _ = screen.perform(ScriptCommand("-")!)
    scheduler.start()
    // then
    XCTAssertEqual(withAlert.last, "alert: The counter is already at its maximum (5).")
    XCTAssertEqual(screen.render(.script), ["Counter  (-5…5)", "value: 4"])
  }

  func test_perform_unknownCommandAndHelp_explain() {
    // given
    let screen = makeScreen(scheduler: TestScheduler(initialClock: 0))
    // when
    _ = screen.perform(ScriptCommand("jump 3")!)
    let unknown = screen.render(.script)
    _ = screen.perform(ScriptCommand("help")!)
    let help = screen.render(.script)
    // then
    XCTAssertEqual(unknown.last, "Unknown command 'jump'. Type help for the list.")
    XCTAssertTrue(help.contains("Commands:"))
  }

  func test_handle_keysDriveTheReactorAndQuit() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let screen = makeScreen(scheduler: scheduler)
    // when
    let up = screen.handle(.up)
    scheduler.start()
    _ = screen.handle(.character("-"))
    scheduler.start()
    _ = screen.handle(.character("-"))
    scheduler.start()
    let quit = screen.handle(.character("q"))
    // then
    XCTAssertEqual(up, .continue)
    XCTAssertEqual(quit, .quit)
    XCTAssertEqual(screen.reactor?.currentState.value, -1)
    let lines = screen.render(.terminal(TerminalSize(columns: 80, rows: 24)))
    XCTAssertTrue(lines.contains { $0.contains("increase") && $0.contains("quit") })
  }

  private func makeScreen(scheduler: TestScheduler, value: Int = 0) -> CounterScreen {
    let screen = CounterScreen()
    screen.reactor = CounterReactor(value: value, delay: .seconds(1), scheduler: scheduler)
    return screen
  }
}
