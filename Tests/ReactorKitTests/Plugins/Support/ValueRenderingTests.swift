import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class ValueRenderingTests: XCTestCase {
  private let renderer = ValueRenderer(isRedacted: { $0.lowercased().hasSuffix("password") })

  func test_render_leavesAndContainers() {
    XCTAssertEqual(renderer.render("a \"b\"\n"), #""a \"b\"\n""#)
    XCTAssertEqual(renderer.render(42), "42")
    XCTAssertEqual(renderer.render(Optional<Int>.none as Any), "nil")
    XCTAssertEqual(renderer.render(Optional(3) as Any), "3")
    XCTAssertEqual(renderer.render([1, 2]), "[1, 2]")
    XCTAssertEqual(renderer.render(["b": 2, "a": 1]), #"["a": 1, "b": 2]"#)
    XCTAssertEqual(renderer.render([String: Int]()), "[:]")
    XCTAssertEqual(renderer.render(Set(["z", "a"])), #"["a", "z"]"#)
    XCTAssertEqual(renderer.render((1, label: "x")), #"(1, label: "x")"#)
    XCTAssertEqual(renderer.render(URL(string: "https://example.com/a")!), "https://example.com/a")
    XCTAssertEqual(
      renderer.render(Date(timeIntervalSince1970: 0)),
      String(describing: Date(timeIntervalSince1970: 0)))
  }

  func test_render_structsClassesAndEnums() {
    XCTAssertEqual(
      renderer.render(RenderedThing(name: "n", kind: .big(size: 2, "x"), next: nil)),
      #"RenderedThing(name: "n", kind: .big(size: 2, "x"), next: nil)"#)
    XCTAssertEqual(renderer.render(RenderedKind.small), "RenderedKind.small")
    XCTAssertEqual(renderer.render(RenderedKind.one(7)), "RenderedKind.one(7)")
    XCTAssertEqual(renderer.render(RenderedBox(value: 1)), "RenderedBox<Int>(value: 1)")
    XCTAssertEqual(
      renderer.render(RenderedThing.Nested.inner), "RenderedThing.Nested.inner",
      "nested types are qualified by their enclosing types, not their module")
  }

  func test_render_ignoresCustomDescriptions() {
    XCTAssertEqual(
      renderer.render(Leaky(password: "hunter2", user: "ann")),
      #"Leaky(password: <redacted>, user: "ann")"#)
  }

  func test_render_redactsFieldsCasesAndKeys() {
    XCTAssertEqual(
      renderer.render(RenderedKind.setPassword("p")), "RenderedKind.setPassword(<redacted>)")
    XCTAssertEqual(
      renderer.render(["password": "p", "user": "u"]), #"["password": <redacted>, "user": "u"]"#)
    XCTAssertEqual(
      renderer.render(RenderedKind.login(user: "u", adminPassword: "p")),
      #"RenderedKind.login(user: "u", adminPassword: <redacted>)"#)
  }

  func test_render_isBoundedInDepthAndLength() {
    // given
    var chain: RenderedThing?
    for index in 0..<50 {
      chain = RenderedThing(name: "\(index)", kind: .small, next: chain.map(RenderedBox.init))
    }
    let short = ValueRenderer(maximumLength: 20)
    // when
    let deep = renderer.render(chain!)
    // then
    XCTAssertTrue(deep.contains("…"))
    XCTAssertLessThan(deep.count, 2_000)
    XCTAssertEqual(short.render(String(repeating: "a", count: 100)).count, 21)
    XCTAssertTrue(short.render(Array(0..<100)).hasSuffix("…"))
  }

  func test_differences_reportEachKind() {
    // given
    let old = DiffSample(
      list: [1, 2, 3], map: ["a": 1, "b": 2], set: [1, 2], kind: .small, box: RenderedBox(value: 1),
      password: "old")
    let new = DiffSample(
      list: [1, 5], map: ["a": 1, "c": 3], set: [2, 3], kind: .one(1), box: RenderedBox(value: 2),
      password: "new")
    // when
    let differences = valueDifferences(
      from: old, to: new, render: renderer.renderPart,
      isRedacted: { $0.hasSuffix("password") })
    // then
    XCTAssertEqual(
      differences,
      [
        ValueDifference(path: ".list[1]", kind: .changed(old: "2", new: "5")),
        ValueDifference(path: ".list[2]", kind: .removed(old: "3")),
        ValueDifference(path: ".map[\"b\"]", kind: .removed(old: "2")),
        ValueDifference(path: ".map[\"c\"]", kind: .added(new: "3")),
        ValueDifference(path: ".set", kind: .missingElement("1")),
        ValueDifference(path: ".set", kind: .extraElement("3")),
        ValueDifference(path: ".kind", kind: .changed(old: ".small", new: ".one(1)")),
        ValueDifference(path: ".box.value", kind: .changed(old: "1", new: "2")),
        ValueDifference(path: ".password", kind: .changed(old: "<redacted>", new: "<redacted>")),
      ])
  }

  func test_differences_skippingEqualValues_trustEquatable() {
    // given
    let old = [LooseEquality(id: 1, note: "a"), LooseEquality(id: 2, note: "b")]
    let new = [LooseEquality(id: 1, note: "changed"), LooseEquality(id: 3, note: "b")]
    // when
    let thorough = valueDifferences(from: old, to: new, render: renderer.renderPart)
    let fast = valueDifferences(
      from: old, to: new, render: renderer.renderPart, skipsEqualValues: true)
    // then
    XCTAssertEqual(thorough.map(\.path), ["[0].note", "[1].id"])
    XCTAssertEqual(fast.map(\.path), ["[1].id"])
  }

  func test_differences_ofEqualValues_areEmpty() {
    let sample = DiffSample(
      list: [1], map: [:], set: [], kind: .small, box: RenderedBox(value: 1), password: "")
    XCTAssertEqual(valueDifferences(from: sample, to: sample, render: renderer.renderPart), [])
  }
}

private struct RenderedThing {
  enum Nested { case inner }
  var name: String
  var kind: RenderedKind
  var next: RenderedBox<RenderedThing>?
}

private enum RenderedKind: Equatable {
  case small
  case one(Int)
  case big(size: Int, String)
  case setPassword(String)
  case login(user: String, adminPassword: String)
}

private final class RenderedBox<Value> {
  let value: Value
  init(value: Value) { self.value = value }
}

private struct Leaky: CustomStringConvertible {
  var password: String
  var user: String
  var description: String { "Leaky(\(user), \(password))" }
}

private struct DiffSample {
  var list: [Int]
  var map: [String: Int]
  var set: Set<Int>
  var kind: RenderedKind
  var box: RenderedBox<Int>
  var password: String
}

/// Equal by `id` only.
private struct LooseEquality: Equatable {
  var id: Int
  var note: String
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
}
