import Foundation
import ReactorKit
import XCTest

@testable import ReactorKitInspector

/// The state tree the page shows: its node shape, redaction by field name, and its bounds.
final class StateTreeTests: XCTestCase {
  private struct Profile {
    var name = "ada"
    var tags = ["b", "a"]
    var scores = ["z": 1, "x": 2]
    var session = Session()
    var nickname: String? = nil

    struct Session {
      var isLoggingIn = false
      var token = "s3cr3t"
    }
  }

  private func tree(_ value: Any, maximumDepth: Int = 16, maximumNodes: Int = 5_000) throws
    -> [String: Any]
  {
    var tree = EventRenderer(redaction: .default).tree
    tree.maximumDepth = maximumDepth
    tree.maximumNodes = maximumNodes
    let text = tree.json(value)
    return try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
  }

  private func child(_ node: [String: Any], _ label: String) -> [String: Any]? {
    (node["c"] as? [[String: Any]])?.first { $0["k"] as? String == label }
  }

  func testAStructIsANodeWithTypedChildrenAndLeavesCarryTheirText() throws {
    let root = try tree(Profile())

    XCTAssertEqual(root["t"] as? String, "Profile")
    XCTAssertEqual(root["n"] as? Int, 5)
    XCTAssertEqual(child(root, "name")?["v"] as? String, "\"ada\"")
    XCTAssertEqual(child(root, "nickname")?["v"] as? String, "nil")
    let tags = try XCTUnwrap(child(root, "tags"))
    XCTAssertEqual(tags["s"] as? String, "items")
    XCTAssertEqual((tags["c"] as? [[String: Any]])?.map { $0["k"] as? String }, ["0", "1"])
  }

  func testDictionaryEntriesAreSortedByKey() throws {
    let scores = try XCTUnwrap(child(try tree(Profile()), "scores"))
    XCTAssertEqual((scores["c"] as? [[String: Any]])?.map { $0["k"] as? String }, ["x", "z"])
  }

  func testASecretNamedFieldIsRedactedAndItsNeighboursAreNot() throws {
    let session = try XCTUnwrap(child(try tree(Profile()), "session"))
    let token = try XCTUnwrap(child(session, "token"))
    XCTAssertNotEqual(token["v"] as? String, "\"s3cr3t\"")
    XCTAssertFalse(String(describing: token).contains("s3cr3t"))
    XCTAssertEqual(child(session, "isLoggingIn")?["v"] as? String, "false")
  }

  func testDepthBeyondTheLimitRendersAsAnEllipsis() throws {
    var nested: Any = 1
    for _ in 0..<10 { nested = [nested] }
    var node = try tree(nested, maximumDepth: 3)
    var depth = 0
    while let next = (node["c"] as? [[String: Any]])?.first {
      node = next
      depth += 1
    }
    XCTAssertEqual(node["v"] as? String, "…")
    XCTAssertEqual(depth, 3)
  }

  func testTheNodeBudgetCutsLargeCollections() throws {
    let root = try tree(Array(0..<1_000), maximumNodes: 50)
    let children = try XCTUnwrap(root["c"] as? [[String: Any]])
    XCTAssertEqual(root["n"] as? Int, 1_000)
    XCTAssertLessThan(children.count, 60)
    XCTAssertEqual(children.last?["v"] as? String, "more not shown")
  }
}
