/// A repository as GitHub's search API describes it (the fields the example shows).
public struct Repository: Codable, Equatable, Hashable, Identifiable, Sendable {
  public var id: Int
  /// `owner/name`.
  public var fullName: String
  public var htmlURL: String
  public var description: String?
  public var language: String?
  public var stars: Int

  public init(
    id: Int, fullName: String, htmlURL: String, description: String?, language: String?,
    stars: Int
  ) {
    self.id = id
    self.fullName = fullName
    self.htmlURL = htmlURL
    self.description = description
    self.language = language
    self.stars = stars
  }

  private enum CodingKeys: String, CodingKey {
    case id
    case fullName = "full_name"
    case htmlURL = "html_url"
    case description
    case language
    case stars = "stargazers_count"
  }
}

/// One page of search results.
public struct SearchPage: Equatable, Sendable {
  /// The query the page answers (trimmed).
  public var query: String
  /// The 1-based page number.
  public var page: Int
  public var repositories: [Repository]
  /// How many repositories match the query in total.
  public var totalCount: Int
  /// The page to ask for next, or `nil` after the last page.
  public var nextPage: Int?

  public init(
    query: String, page: Int, repositories: [Repository], totalCount: Int, nextPage: Int?
  ) {
    self.query = query
    self.page = page
    self.repositories = repositories
    self.totalCount = totalCount
    self.nextPage = nextPage
  }

  /// No results for `query`.
  public static func empty(query: String) -> SearchPage {
    SearchPage(query: query, page: 1, repositories: [], totalCount: 0, nextPage: nil)
  }
}
