import Foundation
import ReactorKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Searches api.github.com (`GET /search/repositories`), unauthenticated.
///
/// GitHub limits unauthenticated searches to a few per minute and returns at most 1,000
/// results per query; both limits surface as ``GitHubServiceError``s.
public final class GitHubService: GitHubServiceType {
  public let pageSize: Int
  private let session: URLSession
  private let baseURL: URL

  /// Creates a service talking to `baseURL` (GitHub's API, or a compatible server).
  public init(
    baseURL: URL = URL(string: "https://api.github.com")!, session: URLSession = .shared,
    pageSize: Int = 30
  ) {
    self.baseURL = baseURL
    self.session = session
    self.pageSize = pageSize
  }

  public func search(query: String, page: Int) -> Observable<SearchPage> {
    let query = query.trimmingCharacters(in: .whitespaces)
    let request = makeRequest(query: query, page: page)
    let (session, pageSize) = (self.session, self.pageSize)
    // One task per subscription; disposing the subscription cancels the request.
    return Observable.async {
      let data: Data
      let response: URLResponse
      do {
        (data, response) = try await session.data(for: request)
      } catch {
        let host = request.url?.host ?? "the server"
        throw GitHubServiceError.unreachable(host: host, reason: error.localizedDescription)
      }
      return try Self.page(
        data: data, response: response, query: query, page: page, pageSize: pageSize)
    }
  }

  private func makeRequest(query: String, page: Int) -> URLRequest {
    var components = URLComponents(
      url: baseURL.appendingPathComponent("search/repositories"), resolvingAgainstBaseURL: false)!
    components.queryItems = [
      URLQueryItem(name: "q", value: query),
      URLQueryItem(name: "page", value: String(page)),
      URLQueryItem(name: "per_page", value: String(pageSize)),
    ]
    var request = URLRequest(url: components.url!)
    request.setValue("application/vnd.github+json", forHTTPHeaderField: "Accept")
    request.setValue("ReactorKit-GitHubSearch-Example", forHTTPHeaderField: "User-Agent")
    request.timeoutInterval = 15
    return request
  }

  /// Turns GitHub's answer into a page, or throws a ``GitHubServiceError``.
  static func page(data: Data, response: URLResponse, query: String, page: Int, pageSize: Int)
    throws -> SearchPage
  {
    guard let response = response as? HTTPURLResponse else {
      throw GitHubServiceError.invalidResponse("not an HTTP response")
    }
    guard (200..<300).contains(response.statusCode) else {
      let message = (try? JSONDecoder().decode(ErrorBody.self, from: data))?.message
      throw GitHubServiceError.http(
        status: response.statusCode,
        message: message ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode))
    }
    let body: SearchBody
    do {
      body = try JSONDecoder().decode(SearchBody.self, from: data)
    } catch {
      throw GitHubServiceError.invalidResponse(String(describing: error))
    }
    // The search API serves at most the first 1,000 results of a query.
    let reachable = min(body.totalCount, 1000)
    return SearchPage(
      query: query, page: page, repositories: body.items, totalCount: body.totalCount,
      nextPage: page * pageSize < reachable && !body.items.isEmpty ? page + 1 : nil)
  }

  private struct SearchBody: Decodable {
    var totalCount: Int
    var items: [Repository]

    private enum CodingKeys: String, CodingKey {
      case totalCount = "total_count"
      case items
    }
  }

  private struct ErrorBody: Decodable {
    var message: String
  }
}
