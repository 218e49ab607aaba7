import Foundation
import ReactorKit
import XCTest

@testable import ReactorKitInspector

/// Request values never reach a response header unencoded (issue 22, item 1), over real
/// sockets, so the exact header lines are seen.
final class InspectorHeaderInjectionTests: XCTestCase {
  /// The header lines of the first response to `target`, sent with the token.
  private func headerLines(_ inspector: Inspector, _ target: String) throws -> [String] {
    let client = try XCTUnwrap(RawClient(port: inspector.port))
    client.send(
      "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(inspector.port)\r\n"
        + "Authorization: Bearer \(inspector.token)\r\nConnection: close\r\n\r\n")
    let text = client.readAll(timeout: 5).text
    let head = text.components(separatedBy: "\r\n\r\n")[0]
    return Array(head.components(separatedBy: "\r\n"))
  }

  func test_export_sourceWithCRLF_addsNoHeader() throws {
    // given
    let (inspector, store) = try makeInspectedStore()
    store.dispatch(NotesAction.increment)
    // when
    let lines = try headerLines(
      inspector, "/api/export?source=x%0d%0aSet-Cookie:%20a=b%0d%0aX-Injected:%201")
    // then
    XCTAssertEqual(RawClient.status(of: lines[0]), 200, "\(lines)")
    let names = lines.dropFirst().map { $0.split(separator: ":")[0].lowercased() }
    XCTAssertFalse(names.contains("set-cookie"), "\(lines)")
    XCTAssertFalse(names.contains("x-injected"), "\(lines)")
    XCTAssertEqual(names.filter { $0 == "content-disposition" }.count, 1, "\(lines)")
  }

  func test_export_sourceWithBareLF_orNUL_addsNoLineBreak() throws {
    let (inspector, _) = try makeInspectedStore()
    for source in ["x%0aX-Injected:%201", "x%0dX-Injected:%201", "x%00y"] {
      let lines = try headerLines(inspector, "/api/export?source=\(source)")
      for line in lines {
        XCTAssertFalse(line.contains("\n") || line.contains("\r") || line.contains("\0"), source)
        XCTAssertFalse(line.lowercased().hasPrefix("x-injected"), source)
      }
    }
  }

  func test_export_sourceWithAQuote_givesOneFileName() throws {
    // given
    let (inspector, _) = try makeInspectedStore()
    // when
    let lines = try headerLines(inspector, "/api/export?source=a%22;%20filename=%22evil.sh")
    // then
    let disposition = try XCTUnwrap(
      lines.first { $0.lowercased().hasPrefix("content-disposition:") })
    XCTAssertEqual(
      disposition.components(separatedBy: "filename=").count - 1, 1,
      "one plain file name: \(disposition)")
    XCTAssertFalse(disposition.contains("evil.sh\""), disposition)
    XCTAssertTrue(
      disposition.contains("filename=\"a___filename__evil.sh-recording.jsonl\""), disposition)
  }

  func test_export_plainSource_keepsItsName() throws {
    let (inspector, _) = try makeInspectedStore()
    let lines = try headerLines(inspector, "/api/export?source=store")
    XCTAssertTrue(
      lines.contains(
        "Content-Disposition: attachment; filename=\"store-recording.jsonl\"; "
          + "filename*=UTF-8''store-recording.jsonl"), "\(lines)")
  }
}
