import GitHubSearchKit
import ReactorKit
import ReactorKitTesting
import XCTest

final class OfflineGitHubServiceTests: ResourceTestCase {
  func test_bundledRepositories_loadTheGeneratedDataset() throws {
    // when
    let repositories = try OfflineGitHubService.bundledRepositories()
    // then
    XCTAssertEqual(repositories.count, 3000)
    XCTAssertEqual(Set(repositories.map(\.id)).count, repositories.count)
    XCTAssertEqual(Set(repositories.map { $0.fullName.lowercased() }).count, repositories.count)
    XCTAssertTrue(repositories.allSatisfy { $0.fullName.split(separator: "/").count == 2 })
    XCTAssertTrue(repositories.allSatisfy { $0.stars >= 0 })
  }

  func test_results_matchEveryWordSortedByStars() {
    // given
    let service = makeService()
    // when
    let page = service.results(query: "  Reactive SWIFT ", page: 1)
    // then
    XCTAssertEqual(page.query, "Reactive SWIFT")
    XCTAssertEqual(page.repositories.map(\.fullName), ["b/reactive-kit", "a/ReactiveSwift"])
    XCTAssertEqual(page.totalCount, 2)
    XCTAssertNil(page.nextPage)
  }

  func test_results_languageQualifierFilters() {
    // given
    let service = makeService()
    // when
    let page = service.results(query: "language:rust", page: 1)
    let combined = service.results(query: "cache language:swift", page: 1)
    // then
    XCTAssertEqual(page.repositories.map(\.fullName), ["c/cache-rs"])
    XCTAssertEqual(combined.repositories.map(\.fullName), ["d/SwiftCache"])
  }

  func test_results_arePaged() {
    // given
    let service = makeService(pageSize: 2)
    // when
    let first = service.results(query: "e", page: 1)
    let second = service.results(query: "e", page: 2)
    let third = service.results(query: "e", page: 3)
    let beyond = service.results(query: "e", page: 9)
    // then
    XCTAssertEqual(first.totalCount, 5)
    XCTAssertEqual(first.nextPage, 2)
    XCTAssertEqual(second.nextPage, 3)
    XCTAssertEqual(third.repositories.count, 1)
    XCTAssertNil(third.nextPage)
    XCTAssertEqual(beyond.repositories, [])
    let all = (first.repositories + second.repositories + third.repositories).map(\.stars)
    XCTAssertEqual(all, all.sorted(by: >))
  }

  func test_results_emptyQueryOrBadPageFindNothing() {
    // given
    let service = makeService()
    // then
    XCTAssertEqual(service.results(query: "   ", page: 1), .empty(query: ""))
    XCTAssertEqual(service.results(query: "swift", page: 0), .empty(query: "swift"))
    XCTAssertEqual(service.results(query: "nothing-like-this", page: 1).totalCount, 0)
  }

  func test_search_answersAfterTheLatencyOrNotAtAllWhenDisposed() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let service = makeService(scheduler: scheduler)
    // when
    let answered = scheduler.start { service.search(query: "rust", page: 1).map(\.totalCount) }
    let cancelled = scheduler.start(created: 1100, subscribed: 1200, disposed: 1202) {
      service.search(query: "rust", page: 1).map(\.totalCount)
    }
    // then
    XCTAssertEqual(answered.events, [.next(203, 1), .completed(203)])
    XCTAssertEqual(cancelled.events, [])
  }

  private func makeService(
    scheduler: SchedulerType = MainScheduler.instance, pageSize: Int = 30
  ) -> OfflineGitHubService {
    let repositories = [
      Repository(
        id: 1, fullName: "a/ReactiveSwift", htmlURL: "", description: "Streams of values",
        language: "Swift", stars: 10),
      Repository(
        id: 2, fullName: "b/reactive-kit", htmlURL: "", description: "Reactive helpers for Swift",
        language: "Kotlin", stars: 20),
      Repository(
        id: 3, fullName: "c/cache-rs", htmlURL: "", description: nil, language: "Rust", stars: 5),
      Repository(
        id: 4, fullName: "d/SwiftCache", htmlURL: "", description: "A cache", language: "Swift",
        stars: 7),
      Repository(
        id: 5, fullName: "e/empty", htmlURL: "", description: nil, language: nil, stars: 0),
    ]
    return OfflineGitHubService(
      repositories: repositories, latency: .seconds(3), scheduler: scheduler, pageSize: pageSize)
  }
}
