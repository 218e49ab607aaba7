import ExampleSupport
import ReactorKit
import ReactorKitTesting
import XCTest

@testable import GitHubSearchKit

final class GitHubSearchScreenTests: ResourceTestCase {
  func test_perform_search_printsResultsOnceIdle() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let screen = makeScreen(scheduler)
    // when
    _ = screen.perform(ScriptCommand("search swift")!)
    let busy = screen.isIdle
    let searching = screen.render(.script)
    scheduler.start()
    // then
    XCTAssertFalse(busy)
    XCTAssertEqual(
      searching[1...2], ["search: swift", "type a query to search repositories · searching…"])
    XCTAssertTrue(screen.isIdle)
    XCTAssertEqual(
      screen.render(.script),
      [
        "GitHub Search · test data",
        "search: swift",
        "5 repositories for \"swift\" · showing 2 · more available",
        "   1. owner/repo1  ★ 99  Swift  — Repository 1",
        "   2. owner/repo2  ★ 98  Swift  — Repository 2",
      ])
  }

  func test_perform_typeAndNext_searchOnceAndPage() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let service = FakeGitHubService(scheduler: scheduler)
    let screen = makeScreen(scheduler, service: service)
    // when
    _ = screen.perform(ScriptCommand("type rx")!)
    scheduler.start()
    _ = screen.perform(ScriptCommand("next")!)
    scheduler.start()
    _ = screen.perform(ScriptCommand("next")!)
    scheduler.start()
    // then
    XCTAssertEqual(service.requests.map(\.query), ["rx", "rx", "rx"])
    XCTAssertEqual(service.requests.map(\.page), [1, 2, 3])
    XCTAssertEqual(
      screen.render(.script)[2], "5 repositories for \"rx\" · showing 5 · end of results")
  }

  func test_perform_showAndMistakes_explain() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let screen = makeScreen(scheduler)
    _ = screen.perform(ScriptCommand("search swift")!)
    scheduler.start()
    // when
    _ = screen.perform(ScriptCommand("show 2")!)
    let details = screen.render(.script)
    _ = screen.perform(ScriptCommand("show 9")!)
    let missing = screen.render(.script)
    _ = screen.perform(ScriptCommand("fly")!)
    let unknown = screen.render(.script)
    // then
    XCTAssertEqual(
      details[3...4], ["owner/repo2 · ★ 98 · Swift", "https://github.com/owner/repo2"])
    XCTAssertEqual(missing[3], "No result with that number.")
    XCTAssertEqual(unknown[3], "Unknown command 'fly'. Type help for the list.")
  }

  func test_handle_typingSearchesAndScrollingPastTheEndLoadsMore() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let service = FakeGitHubService(scheduler: scheduler)
    let screen = makeScreen(scheduler, service: service)
    // when
    for key: Key in [.character("g"), .character("o"), .backspace, .character("a")] {
      _ = screen.handle(key)
    }
    scheduler.start()
    _ = screen.handle(.down)
    scheduler.start()
    let quit = screen.handle(.escape)
    // then
    XCTAssertEqual(service.requests.map(\.query), ["ga", "ga"])
    XCTAssertEqual(service.requests.map(\.page), [1, 2])
    XCTAssertEqual(quit, .quit)
    let lines = screen.render(.terminal(TerminalSize(columns: 80, rows: 8)))
    XCTAssertEqual(lines.count, 8)
  }

  func test_formatStars_abbreviatesThousands() {
    XCTAssertEqual(GitHubSearchScreen.format(stars: 999), "999")
    XCTAssertEqual(GitHubSearchScreen.format(stars: 1000), "1k")
    XCTAssertEqual(GitHubSearchScreen.format(stars: 1234), "1.2k")
    XCTAssertEqual(GitHubSearchScreen.format(stars: 83825), "83.8k")
  }

  private func makeScreen(_ scheduler: TestScheduler, service: FakeGitHubService? = nil)
    -> GitHubSearchScreen
  {
    let screen = GitHubSearchScreen(source: "test data")
    screen.reactor = GitHubSearchReactor(
      service: service ?? FakeGitHubService(scheduler: scheduler), debounce: .seconds(1),
      scheduler: scheduler)
    return screen
  }
}
