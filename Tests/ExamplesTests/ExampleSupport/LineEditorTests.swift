import ExampleSupport
import XCTest

final class LineEditorTests: XCTestCase {
  func test_handle_insertsAtCursorAndMoves() {
    // given
    var editor = LineEditor(text: "ac")
    // when
    editor.handle(.left)
    editor.handle(.character("b"))
    editor.handle(.home)
    editor.handle(.character(">"))
    editor.handle(.end)
    editor.handle(.character("!"))
    // then
    XCTAssertEqual(editor.text, ">abc!")
    XCTAssertEqual(editor.cursor, 5)
  }

  func test_handle_deletesAndClears() {
    // given
    var editor = LineEditor(text: "buy oat milk")
    // when
    editor.handle(.backspace)
    editor.handle(.control("w"))
    let afterWord = editor.text
    editor.handle(.home)
    editor.handle(.delete)
    let afterDelete = editor.text
    editor.handle(.control("u"))
    // then
    XCTAssertEqual(afterWord, "buy oat ")
    XCTAssertEqual(afterDelete, "uy oat ")
    XCTAssertEqual(editor.text, "")
    XCTAssertEqual(editor.cursor, 0)
  }

  func test_handle_ignoresNonEditingKeysAndStaysInBounds() {
    // given
    var editor = LineEditor()
    // when
    let handledUp = editor.handle(.up)
    let handledEnter = editor.handle(.enter)
    editor.handle(.left)
    editor.handle(.backspace)
    editor.handle(.delete)
    // then
    XCTAssertFalse(handledUp)
    XCTAssertFalse(handledEnter)
    XCTAssertEqual(editor, LineEditor())
  }

  func test_rendered_drawsCursorOnlyWhenStyled() {
    // given
    var editor = LineEditor(text: "ab")
    editor.handle(.left)
    // when
    let plain = editor.rendered(.plain)
    let styled = editor.rendered(.ansi)
    // then
    XCTAssertEqual(plain, "ab")
    XCTAssertEqual(styled, "a\u{1B}[7mb\u{1B}[0m")
  }
}
