import Foundation
import ReactorKit

/// Searches GitHub as the user types: queries are debounced, a new query cancels the search
/// in flight (`flatMapLatest`), and further pages load on demand.
///
/// Every query the user types becomes a `setQuery` mutation at once (the screen shows it);
/// ``transform(mutation:)`` debounces those into first-page requests, merges next-page
/// requests, and switches to the latest request, so a slow answer to an old query can never
/// overwrite a newer one.
public final class GitHubSearchReactor: Reactor {
  public enum Action: Equatable, Sendable {
    /// The text in the search field changed.
    case updateQuery(String)
    /// The user scrolled to the end of the results.
    case loadNextPage
  }

  public enum Mutation: Equatable, Sendable {
    case setQuery(String)
    case requestNextPage(SearchRequest)
    case setResults(SearchPage)
    case appendResults(SearchPage)
    case setError(String)
  }

  /// A page of a query to fetch.
  public struct SearchRequest: Equatable, Sendable {
    public var query: String
    public var page: Int
  }

  public struct State {
    /// The search field's text.
    public var query = ""
    /// The query the shown results belong to.
    public var resultsQuery = ""
    public var repositories: [Repository] = []
    /// How many repositories match ``resultsQuery``.
    public var totalCount = 0
    public var nextPage: Int?
    /// Whether results for ``query`` are still to come (waiting for the debounce or the
    /// service).
    public var isSearching = false
    public var isLoadingNextPage = false
    /// The last search failure, to show once.
    @Pulse public var errorMessage: String?

    public init() {}
  }

  public let initialState = State()
  private let service: GitHubServiceType
  private let debounceInterval: RxTimeInterval
  private let timeScheduler: SchedulerType

  /// Creates a search reactor.
  /// - Parameters:
  ///   - service: Where searches go.
  ///   - debounce: How long typing must pause before a query is searched.
  ///   - scheduler: Runs the debounce and delivers the service's answers: the main scheduler
  ///     in the app, a `TestScheduler` in tests.
  public init(service: GitHubServiceType, debounce: RxTimeInterval, scheduler: SchedulerType) {
    self.service = service
    debounceInterval = debounce
    timeScheduler = scheduler
  }

  public func mutate(action: Action) -> Observable<Mutation> {
    switch action {
    case .updateQuery(let query):
      return .just(.setQuery(query))
    case .loadNextPage:
      let state = currentState
      guard !state.isSearching, !state.isLoadingNextPage, let page = state.nextPage else {
        return .empty()
      }
      return .just(.requestNextPage(SearchRequest(query: state.resultsQuery, page: page)))
    }
  }

  public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    let mutation = mutation.share()
    let firstPages =
      mutation
      .compactMap { mutation -> SearchRequest? in
        guard case .setQuery(let query) = mutation else { return nil }
        return SearchRequest(query: Self.normalized(query), page: 1)
      }
      .debounce(debounceInterval, scheduler: timeScheduler)
    let nextPages = mutation.compactMap { mutation -> SearchRequest? in
      guard case .requestNextPage(let request) = mutation else { return nil }
      return request
    }
    let (service, scheduler) = (self.service, timeScheduler)
    let answers = Observable.merge(firstPages, nextPages)
      .flatMapLatest { request in Self.load(request, from: service, on: scheduler) }
    return .merge(mutation, answers)
  }

  private static func load(
    _ request: SearchRequest, from service: GitHubServiceType, on scheduler: SchedulerType
  ) -> Observable<Mutation> {
    guard !request.query.isEmpty else { return .just(.setResults(.empty(query: ""))) }
    return service.search(query: request.query, page: request.page)
      .observe(on: scheduler)
      .map { request.page == 1 ? .setResults($0) : .appendResults($0) }
      .catch { .just(.setError(String(describing: $0))) }
  }

  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setQuery(let query):
      state.query = query
      state.isSearching = true
    case .requestNextPage:
      state.isLoadingNextPage = true
    case .setResults(let page):
      state.resultsQuery = page.query
      state.repositories = page.repositories
      state.totalCount = page.totalCount
      state.nextPage = page.nextPage
      state.isSearching = page.query != Self.normalized(state.query)
      state.isLoadingNextPage = false
    case .appendResults(let page):
      state.isLoadingNextPage = false
      guard page.query == state.resultsQuery else { break }
      state.repositories += page.repositories
      state.nextPage = page.nextPage
    case .setError(let message):
      state.errorMessage = message
      state.isSearching = false
      state.isLoadingNextPage = false
    }
    return state
  }

  /// The query as it is searched: without surrounding spaces.
  public static func normalized(_ query: String) -> String {
    query.trimmingCharacters(in: .whitespaces)
  }
}
