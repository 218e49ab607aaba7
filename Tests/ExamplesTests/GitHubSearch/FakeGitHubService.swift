import GitHubSearchKit
import ReactorKit
import ReactorKitTesting

/// A search service whose answers are cold test observables, so tests can see when each
/// request was subscribed and cancelled.
final class FakeGitHubService: GitHubServiceType {
  struct Request {
    var query: String
    var page: Int
    var answer: TestableObservable<SearchPage>
  }

  let pageSize = 2
  private let scheduler: TestScheduler
  private let latency: TestTime
  private let repositories: [Repository]
  private(set) var requests: [Request] = []
  /// When set, every request fails with this error after the latency.
  var failure: Error?

  init(scheduler: TestScheduler, latency: TestTime = 10, repositoryCount: Int = 5) {
    self.scheduler = scheduler
    self.latency = latency
    repositories = (1...repositoryCount).map {
      Repository(
        id: $0, fullName: "owner/repo\($0)", htmlURL: "https://github.com/owner/repo\($0)",
        description: "Repository \($0)", language: "Swift", stars: 100 - $0)
    }
  }

  func search(query: String, page: Int) -> Observable<SearchPage> {
    let events: [Recorded<Event<SearchPage>>]
    if let failure {
      events = [.error(latency, failure)]
    } else {
      events = [.next(latency, self.page(query: query, page: page)), .completed(latency)]
    }
    let answer = scheduler.createColdObservable(events)
    requests.append(Request(query: query, page: page, answer: answer))
    return answer.asObservable()
  }

  /// The page this service answers for `query`.
  func page(query: String, page: Int) -> SearchPage {
    let start = (page - 1) * pageSize
    let end = min(start + pageSize, repositories.count)
    return SearchPage(
      query: query, page: page, repositories: Array(repositories[start..<end]),
      totalCount: repositories.count, nextPage: end < repositories.count ? page + 1 : nil)
  }
}
