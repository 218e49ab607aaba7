import ExampleSupport
import XCTest

final class KeyDecoderTests: XCTestCase {
  func test_decode_textAndControlKeys() {
    // given
    var decoder = KeyDecoder()
    // when
    let keys = decoder.decode(Array("a Z".utf8) + [0x0D, 0x09, 0x7F, 0x03, 0x15])
    // then
    XCTAssertEqual(
      keys,
      [
        .character("a"), .character(" "), .character("Z"), .enter, .tab, .backspace,
        .control("c"), .control("u"),
      ])
  }

  func test_decode_escapeSequences() {
    // given
    var decoder = KeyDecoder()
    let sequences = ["[A", "[B", "[C", "[D", "[H", "[F", "OA", "[3~", "[5~", "[6~", "[1~", "[4~"]
    // when
    let keys = decoder.decode(sequences.flatMap { [0x1B] + Array($0.utf8) })
    // then
    XCTAssertEqual(
      keys,
      [.up, .down, .right, .left, .home, .end, .up, .delete, .pageUp, .pageDown, .home, .end])
  }

  func test_decode_loneEscapeAndUnknownSequence() {
    // given
    var decoder = KeyDecoder()
    // when
    let unknown = decoder.decode([0x1B] + Array("[2;5Q".utf8) + Array("x".utf8))
    let escape = decoder.decode([0x1B])
    let escapeThenText = decoder.decode([0x1B] + Array("x".utf8))
    // then
    XCTAssertEqual(unknown, [.character("x")])
    XCTAssertEqual(escape, [.escape])
    XCTAssertEqual(escapeThenText, [.escape, .character("x")])
  }

  func test_decode_sequenceSplitAcrossReads() {
    // given
    var decoder = KeyDecoder()
    let euro = Array("€".utf8)
    // when
    let first = decoder.decode([0x1B, UInt8(ascii: "["), UInt8(ascii: "3")])
    let second = decoder.decode([UInt8(ascii: "~")] + euro.prefix(2))
    let third = decoder.decode(euro.suffix(1))
    // then
    XCTAssertEqual(first, [])
    XCTAssertEqual(second, [.delete])
    XCTAssertEqual(third, [.character("€")])
  }
}
