import ReactorKit

/// Searches GitHub repositories, one page at a time.
///
/// Implementations: ``OfflineGitHubService`` (the embedded dataset, with simulated latency)
/// and ``GitHubService`` (api.github.com over HTTP).
public protocol GitHubServiceType: AnyObject {
  /// Results per page.
  var pageSize: Int { get }

  /// The repositories matching `query`, best first, page `page` (1-based).
  ///
  /// The observable emits one page and completes, or fails with a ``GitHubServiceError``.
  /// Disposing it before it emits cancels the request. It may emit on any thread.
  func search(query: String, page: Int) -> Observable<SearchPage>
}

/// Why a search failed, described for the user.
public enum GitHubServiceError: Error, Equatable, CustomStringConvertible {
  /// The server could not be reached (offline, DNS failure, refused connection…).
  case unreachable(host: String, reason: String)
  /// The server answered with an error status.
  case http(status: Int, message: String)
  /// The response could not be understood.
  case invalidResponse(String)

  public var description: String {
    switch self {
    case .unreachable(let host, let reason):
      "Cannot reach \(host) (\(reason)). You seem to be offline: run without --online to "
        + "search the embedded dataset."
    case .http(let status, let message):
      "GitHub answered \(status): \(message)"
    case .invalidResponse(let reason):
      "GitHub sent a response this example does not understand: \(reason)"
    }
  }
}
