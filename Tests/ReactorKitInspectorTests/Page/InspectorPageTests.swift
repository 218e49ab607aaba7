import XCTest

@testable import ReactorKitInspector

/// What the page's script does with the token (issue 22, item 2); `scripts/browser-test.sh`
/// checks the same in a real browser, from a page on another port.
final class InspectorPageTests: XCTestCase {
  private let script = InspectorPageScript.html

  func test_script_neverPutsTheTokenInACookieOrStorage() {
    // A cookie is shared by every port of 127.0.0.1; storage outlives the tab's need for it.
    XCTAssertFalse(script.contains("token + \"; path=/"), "the token goes into a cookie")
    XCTAssertFalse(script.contains("sessionStorage"))
    XCTAssertFalse(script.contains("localStorage"))
    for line in script.split(separator: "\n") where line.contains("document.cookie") {
      XCTAssertTrue(line.contains("Max-Age=0"), "only a stale cookie is removed: \(line)")
      XCTAssertFalse(line.contains("+ token"), String(line))
    }
  }

  func test_script_streamsEventsWithTheBearerHeader() {
    // EventSource can't send headers; the page reads the stream through fetch instead.
    XCTAssertFalse(script.contains("new EventSource"))
    XCTAssertTrue(script.contains("fetch(\"/api/events?since=\""), "the stream is fetched")
    XCTAssertTrue(script.contains("\"Authorization\": \"Bearer \" + token"))
  }

  func test_script_movesTheTokenFromTheAddressBarIntoTheHistoryEntryForAReload() {
    // Read from the fragment once, then kept in the history entry's state (which a reload
    // keeps), with the fragment removed from the address bar.
    XCTAssertTrue(script.contains("location.hash"))
    XCTAssertTrue(script.contains("history.state"), "a reload finds the token there")
    XCTAssertTrue(
      script.contains("history.replaceState(Object.assign({}, history.state, { token: "),
      "the token moves into the entry's state")
    XCTAssertFalse(
      script.contains("history.replaceState(null"), "the token would be lost on a reload")
  }
}
