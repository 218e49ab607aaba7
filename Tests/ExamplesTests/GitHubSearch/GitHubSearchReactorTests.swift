import GitHubSearchKit
import ReactorKit
import ReactorKitTesting
import XCTest

final class GitHubSearchReactorTests: ResourceTestCase {
  func test_updateQuery_isDebouncedIntoOneSearch() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    let reactor = makeReactor(service, scheduler)
    // when
    scheduler.scheduleAt(100) { reactor.action.onNext(.updateQuery("s")) }
    scheduler.scheduleAt(102) { reactor.action.onNext(.updateQuery("sw")) }
    scheduler.scheduleAt(104) { reactor.action.onNext(.updateQuery("swift ")) }
    scheduler.advanceTo(108)
    let searchingWhileDebouncing = reactor.currentState.isSearching
    scheduler.start()
    // then
    XCTAssertTrue(searchingWhileDebouncing)
    XCTAssertEqual(service.requests.map(\.query), ["swift"])
    XCTAssertEqual(service.requests.first?.answer.subscriptions, [Subscription(109, 119)])
    let state = reactor.currentState
    XCTAssertEqual(state.query, "swift ")
    XCTAssertEqual(state.resultsQuery, "swift")
    XCTAssertEqual(state.repositories.map(\.id), [1, 2])
    XCTAssertEqual(state.totalCount, 5)
    XCTAssertEqual(state.nextPage, 2)
    XCTAssertFalse(state.isSearching)
  }

  func test_newQuery_cancelsTheSearchInFlight() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    let reactor = makeReactor(service, scheduler)
    let results = scheduler.createObserver(String.self)
    let subscription = reactor.state.map(\.resultsQuery).subscribe(results)
    // when
    scheduler.scheduleAt(100) { reactor.action.onNext(.updateQuery("old")) }
    scheduler.scheduleAt(108) { reactor.action.onNext(.updateQuery("new")) }
    scheduler.start()
    // then
    XCTAssertEqual(service.requests.map(\.query), ["old", "new"])
    XCTAssertEqual(service.requests[0].answer.subscriptions, [Subscription(105, 113)])
    XCTAssertEqual(service.requests[1].answer.subscriptions, [Subscription(113, 123)])
    XCTAssertFalse(results.events.map(\.value.element).contains("old"))
    XCTAssertEqual(reactor.currentState.resultsQuery, "new")
    subscription.dispose()
  }

  func test_loadNextPage_appendsUntilTheLastPage() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    let reactor = makeReactor(service, scheduler)
    scheduler.scheduleAt(100) { reactor.action.onNext(.updateQuery("swift")) }
    scheduler.advanceTo(200)
    // when
    reactor.action.onNext(.loadNextPage)
    let loading = reactor.currentState.isLoadingNextPage
    reactor.action.onNext(.loadNextPage)
    scheduler.advanceTo(300)
    reactor.action.onNext(.loadNextPage)
    scheduler.advanceTo(400)
    reactor.action.onNext(.loadNextPage)
    scheduler.start()
    // then
    XCTAssertTrue(loading)
    XCTAssertEqual(service.requests.map(\.page), [1, 2, 3])
    XCTAssertEqual(reactor.currentState.repositories.map(\.id), [1, 2, 3, 4, 5])
    XCTAssertNil(reactor.currentState.nextPage)
    XCTAssertFalse(reactor.currentState.isLoadingNextPage)
  }

  func test_newQuery_cancelsTheNextPageInFlight() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    let reactor = makeReactor(service, scheduler)
    scheduler.scheduleAt(100) { reactor.action.onNext(.updateQuery("first")) }
    scheduler.advanceTo(200)
    // when
    reactor.action.onNext(.loadNextPage)
    scheduler.scheduleAt(202) { reactor.action.onNext(.updateQuery("second")) }
    scheduler.start()
    // then
    XCTAssertEqual(service.requests.map(\.page), [1, 2, 1])
    XCTAssertEqual(service.requests[1].answer.subscriptions, [Subscription(200, 207)])
    XCTAssertEqual(reactor.currentState.resultsQuery, "second")
    XCTAssertEqual(reactor.currentState.repositories.map(\.id), [1, 2])
    XCTAssertFalse(reactor.currentState.isLoadingNextPage)
  }

  func test_emptyQuery_clearsTheResultsWithoutASearch() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    let reactor = makeReactor(service, scheduler)
    scheduler.scheduleAt(100) { reactor.action.onNext(.updateQuery("swift")) }
    scheduler.scheduleAt(200) { reactor.action.onNext(.updateQuery("  ")) }
    // when
    scheduler.start()
    // then
    XCTAssertEqual(service.requests.count, 1)
    XCTAssertEqual(reactor.currentState.repositories, [])
    XCTAssertEqual(reactor.currentState.resultsQuery, "")
    XCTAssertFalse(reactor.currentState.isSearching)
  }

  func test_failure_raisesAnErrorAndTheReactorKeepsWorking() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    service.failure = GitHubServiceError.http(status: 403, message: "API rate limit exceeded")
    let reactor = makeReactor(service, scheduler)
    let errors = scheduler.createObserver(String.self)
    let subscription = reactor.pulse(\.$errorMessage).compactMap { $0 }.subscribe(errors)
    // when
    scheduler.scheduleAt(100) { reactor.action.onNext(.updateQuery("swift")) }
    scheduler.advanceTo(200)
    service.failure = nil
    reactor.action.onNext(.updateQuery("rust"))
    scheduler.start()
    // then
    XCTAssertEqual(errors.events, [.next(115, "GitHub answered 403: API rate limit exceeded")])
    XCTAssertEqual(reactor.currentState.resultsQuery, "rust")
    XCTAssertFalse(reactor.currentState.isSearching)
    subscription.dispose()
  }

  func test_reactor_isFreedWithASearchInFlight() {
    // given
    let scheduler = makeScheduler()
    let service = FakeGitHubService(scheduler: scheduler)
    var reactor: GitHubSearchReactor? = makeReactor(service, scheduler)
    weak let weakReactor = reactor
    scheduler.scheduleAt(100) { reactor?.action.onNext(.updateQuery("swift")) }
    scheduler.advanceTo(107)
    // when
    reactor = nil
    // On Linux a freed reactor's streams are released by a background sweep, shortly after.
    let deadline = Date().addingTimeInterval(2)
    while service.requests.first?.answer.subscriptions.first?.unsubscribe == .max,
      Date() < deadline
    {
      RunLoop.current.run(until: Date().addingTimeInterval(0.01))
    }
    scheduler.start()
    // then
    XCTAssertNil(weakReactor)
    XCTAssertEqual(service.requests.first?.answer.subscriptions, [Subscription(105, 107)])
    XCTAssertEqual(service.requests.count, 1)
  }

  /// Work scheduled "now" runs now, so times below are exactly debounce + latency.
  private func makeScheduler() -> TestScheduler {
    TestScheduler(initialClock: 0, simulateProcessingDelay: false)
  }

  private func makeReactor(_ service: FakeGitHubService, _ scheduler: TestScheduler)
    -> GitHubSearchReactor
  {
    GitHubSearchReactor(service: service, debounce: .seconds(5), scheduler: scheduler)
  }
}
