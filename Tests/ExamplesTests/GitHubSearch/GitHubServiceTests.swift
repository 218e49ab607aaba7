import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

@testable import GitHubSearchKit

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

final class GitHubServiceTests: XCTestCase {
  private let url = URL(string: "https://api.github.com/search/repositories")!

  func test_page_decodesGitHubsSearchResponse() throws {
    // given
    let body = """
      {"total_count": 2345, "incomplete_results": false, "items": [
        {"id": 7, "full_name": "apple/swift", "html_url": "https://github.com/apple/swift",
         "description": "The Swift language", "language": "C++", "stargazers_count": 65000,
         "forks_count": 10000}
      ]}
      """
    // when
    let page = try GitHubService.page(
      data: Data(body.utf8), response: response(200), query: "swift", page: 33, pageSize: 30)
    let last = try GitHubService.page(
      data: Data(body.utf8), response: response(200), query: "swift", page: 34, pageSize: 30)
    // then
    XCTAssertEqual(page.repositories.map(\.fullName), ["apple/swift"])
    XCTAssertEqual(page.repositories.first?.stars, 65000)
    XCTAssertEqual(page.totalCount, 2345)
    XCTAssertEqual(page.nextPage, 34)
    XCTAssertNil(last.nextPage, "GitHub serves only the first 1,000 results.")
  }

  func test_page_reportsHTTPErrorsWithGitHubsMessage() {
    // given
    let body = #"{"message": "API rate limit exceeded for 10.0.0.1."}"#
    // then
    XCTAssertThrowsError(
      try GitHubService.page(
        data: Data(body.utf8), response: response(403), query: "swift", page: 1, pageSize: 30)
    ) { error in
      XCTAssertEqual(
        error as? GitHubServiceError,
        .http(status: 403, message: "API rate limit exceeded for 10.0.0.1."))
    }
    XCTAssertThrowsError(
      try GitHubService.page(
        data: Data("{}".utf8), response: response(200), query: "swift", page: 1, pageSize: 30)
    ) { error in
      guard case .invalidResponse = error as? GitHubServiceError else {
        return XCTFail("Expected an invalid response error, got \(error).")
      }
    }
  }

  func test_search_whenTheServerIsUnreachable_failsWithAClearMessage() throws {
    // given: nothing listens on the discard port of the loopback interface
    let service = GitHubService(baseURL: URL(string: "http://127.0.0.1:9")!)
    // when
    let result = service.search(query: "swift", page: 1).toBlocking(timeout: 20).materialize()
    // then
    guard case .failed(_, let error) = result else {
      return XCTFail("Expected the search to fail, got \(result).")
    }
    let serviceError = try XCTUnwrap(error as? GitHubServiceError)
    guard case .unreachable(let host, _) = serviceError else {
      return XCTFail("Expected an unreachable error, got \(serviceError).")
    }
    XCTAssertEqual(host, "127.0.0.1")
    XCTAssertTrue(serviceError.description.contains("run without --online"))
  }

  private func response(_ status: Int) -> HTTPURLResponse {
    HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
  }
}
