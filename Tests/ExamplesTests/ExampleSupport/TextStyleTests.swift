import ExampleSupport
import XCTest

final class TextStyleTests: XCTestCase {
  func test_style_plainLeavesTextAlone() {
    XCTAssertEqual(TextStyle.plain.bold("x"), "x")
    XCTAssertEqual(TextStyle.plain.color(.green, "x"), "x")
    XCTAssertEqual(TextStyle.ansi.bold("x"), "\u{1B}[1mx\u{1B}[0m")
    XCTAssertEqual(TextStyle.ansi.color(.green, "x"), "\u{1B}[32mx\u{1B}[0m")
  }

  func test_truncate_countsOnlyVisibleCharacters() {
    // given
    let styled = TextStyle.ansi.bold("abc") + "def"
    // when
    let cut = TextStyle.truncate(styled, toWidth: 4)
    let whole = TextStyle.truncate(styled, toWidth: 6)
    let plain = TextStyle.truncate("abcdef", toWidth: 2)
    // then
    XCTAssertEqual(cut, "\u{1B}[1mabc\u{1B}[0md\u{1B}[0m")
    XCTAssertEqual(whole, styled)
    XCTAssertEqual(plain, "ab")
  }
}
