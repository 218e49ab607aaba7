import Foundation
import XCTest

@testable import ReactorKitInspector

/// The append-only JSON writer every event and state tree goes through: its text must parse,
/// and no string may break out of a `<script>` or a JSON line.
final class JSONWriterTests: XCTestCase {
  private func parsed(_ text: String) throws -> Any {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
  }

  func testNestedObjectsAndArraysAreSeparatedByCommasAndParse() throws {
    var writer = JSONWriter()
    writer.object { root in
      root.field("name", "ring")
      root.field("count", 3)
      root.field("sequence", UInt64.max)
      root.field("ratio", 0.5)
      root.field("ok", true)
      root.field("missing", nil as String?)
      root.key("items")
      root.array { list in
        list.value(1)
        list.value("two")
        list.object { item in item.field("k", "v") }
        list.array { _ in }
      }
      root.field("raw", raw: "[1,2]")
    }

    let object = try XCTUnwrap(try parsed(writer.text) as? [String: Any])
    XCTAssertEqual(object["name"] as? String, "ring")
    XCTAssertEqual(object["count"] as? Int, 3)
    XCTAssertEqual((object["sequence"] as? NSNumber)?.uint64Value, UInt64.max)
    XCTAssertEqual(object["ratio"] as? Double, 0.5)
    XCTAssertEqual(object["ok"] as? Bool, true)
    XCTAssertTrue(object["missing"] is NSNull)
    let items = try XCTUnwrap(object["items"] as? [Any])
    XCTAssertEqual(items.count, 4)
    XCTAssertEqual(items[1] as? String, "two")
    XCTAssertEqual((items[2] as? [String: String])?["k"], "v")
    XCTAssertEqual(object["raw"] as? [Int], [1, 2])
  }

  func testNonFiniteNumbersBecomeNull() throws {
    var writer = JSONWriter()
    writer.object { root in
      root.field("nan", Double.nan)
      root.field("infinity", Double.infinity)
    }
    XCTAssertEqual(writer.text, #"{"nan":null,"infinity":null}"#)
  }

  func testStringsAreEscapedSoTheyRoundTripAndNeverCloseAScript() throws {
    let nasty = "quote\" back\\slash\nline\rreturn\ttab </script> \u{01}\u{1F} \u{2028}\u{2029} é 🙂"
    let quoted = JSONWriter.quoted(nasty)

    XCTAssertFalse(quoted.contains("</script>"))
    XCTAssertFalse(quoted.contains("\n"))
    XCTAssertFalse(quoted.contains("\u{2028}"))
    XCTAssertTrue(quoted.contains("\\u0001"))
    XCTAssertTrue(quoted.contains("\\u001f"))
    XCTAssertEqual(try parsed(quoted) as? String, nasty)
  }

  func testKeysAreEscapedToo() throws {
    var writer = JSONWriter()
    writer.object { root in root.field("a\"b<", "c") }
    let object = try XCTUnwrap(try parsed(writer.text) as? [String: String])
    XCTAssertEqual(object, ["a\"b<": "c"])
  }
}
