import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// A diff costs what changed, not the whole value (issue 22, item 4): before, every element of
/// a changed array was reflected and compared, so one toggled row of a long list cost the
/// whole list, and an insertion reported every later element as changed.
final class ValueDifferenceCostTests: ResourceTestCase {
  private let renderer = ValueRenderer()

  func test_differences_oneChangedElementOfALongArray_comparesOnlyThatElement() {
    // given
    let counter = EqualityCounter()
    let old = (0..<50_000).map { CountedRow(id: $0, title: "row \($0)", counter: counter) }
    var new = old
    new[31_000].title = "changed"
    counter.reset()
    // when
    let differences = valueDifferences(
      from: Table(rows: old), to: Table(rows: new), render: renderer.renderPart,
      skipsEqualValues: true, identifiesElements: true)
    // then
    XCTAssertEqual(
      differences,
      [
        ValueDifference(
          path: ".rows[31000].title", kind: .changed(old: #""row 31000""#, new: #""changed""#))
      ])
    XCTAssertLessThan(counter.count, 10, "elements compared with == although their bytes are equal")
  }

  func test_differences_unchangedArrayStorage_isSkippedWithoutComparingElements() {
    // given
    let counter = EqualityCounter()
    let rows = (0..<10_000).map { CountedRow(id: $0, title: "row", counter: counter) }
    counter.reset()
    // when
    let differences = valueDifferences(
      from: Pair(table: Table(rows: rows), count: 1), to: Pair(table: Table(rows: rows), count: 2),
      render: renderer.renderPart, skipsEqualValues: true)
    // then
    XCTAssertEqual(
      differences, [ValueDifference(path: ".count", kind: .changed(old: "1", new: "2"))])
    XCTAssertEqual(counter.count, 0)
  }

  func test_differences_insertionIntoIdentifiedElements_isOneAddition() {
    // given
    let old = (0..<1_000).map { Row(id: $0, title: "row \($0)") }
    var new = old
    new.insert(Row(id: 5_000, title: "new"), at: 10)
    new[500].title = "edited"
    // when
    let differences = valueDifferences(
      from: old, to: new, render: renderer.renderPart, skipsEqualValues: true,
      identifiesElements: true)
    // then
    XCTAssertEqual(
      differences,
      [
        ValueDifference(path: "[10]", kind: .added(new: #"Row(id: 5000, title: "new")"#)),
        ValueDifference(path: "[500].title", kind: .changed(old: #""row 499""#, new: #""edited""#)),
      ])
  }

  func test_differences_removalFromIdentifiedElements_isOneRemoval() {
    // given
    let old = (0..<1_000).map { Row(id: $0, title: "row \($0)") }
    var new = old
    new.remove(at: 3)
    // when
    let differences = valueDifferences(
      from: old, to: new, render: renderer.renderPart, skipsEqualValues: true,
      identifiesElements: true)
    // then
    XCTAssertEqual(
      differences,
      [ValueDifference(path: "[3]", kind: .removed(old: #"Row(id: 3, title: "row 3")"#))])
  }

  func test_differences_reorderedIdentifiedElements_areComparedByPosition() {
    let old = [Row(id: 1, title: "a"), Row(id: 2, title: "b")]
    let new = [Row(id: 2, title: "b"), Row(id: 1, title: "a")]
    let differences = valueDifferences(
      from: old, to: new, render: renderer.renderPart, identifiesElements: true)
    XCTAssertEqual(differences.map(\.path), ["[0].id", "[0].title", "[1].id", "[1].title"])
  }

  func test_differences_elementsWithPaddingBetweenFields_equalByValue_areSkipped() {
    // given: a Bool before an Int leaves padding that copies do not copy
    let old = (0..<2_000).map { Padded(flag: $0 % 2 == 0, number: $0) }
    var new = Array(old.reversed().reversed())
    new[1_500].number = -1
    // when
    let differences = valueDifferences(
      from: old, to: new, render: renderer.renderPart, skipsEqualValues: true)
    // then
    XCTAssertEqual(
      differences, [ValueDifference(path: "[1500].number", kind: .changed(old: "1500", new: "-1"))])
  }

  func test_logger_toggleInALongList_logsOneChange() {
    // given
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(format: .text))
    let store = Store(
      reducer: Reducer<Table> { state, _ in state.rows[70_000].title = "toggled" },
      state: Table(rows: (0..<100_000).map { CountedRow(id: $0, title: "r", counter: nil) }),
      middleware: [logger.middleware()])
    // when
    store.dispatch(ToggleRow())
    logger.flush()
    // then
    XCTAssertEqual(
      lines.events.last?.changes,
      [LogEvent.Change(path: ".rows[70000].title", old: #""r""#, new: #""toggled""#)])
  }
}

// MARK: - Fakes

private final class EqualityCounter: @unchecked Sendable {
  // Safety: only touched by the test's thread.
  var count = 0
  func reset() { count = 0 }
}

private struct CountedRow: Equatable, Identifiable, CustomReflectable, @unchecked Sendable {
  var id: Int
  var title: String
  unowned(unsafe) var counter: EqualityCounter?

  init(id: Int, title: String, counter: EqualityCounter?) {
    self.id = id
    self.title = title
    self.counter = counter
  }

  static func == (lhs: CountedRow, rhs: CountedRow) -> Bool {
    lhs.counter?.count += 1
    return lhs.id == rhs.id && lhs.title == rhs.title
  }

  var customMirror: Mirror {
    Mirror(self, children: ["id": id, "title": title], displayStyle: .struct)
  }
}

private struct Table: Equatable, Sendable {
  var rows: [CountedRow]
}

private struct Pair: Equatable, Sendable {
  var table: Table
  var count: Int
}

private struct Row: Equatable, Identifiable {
  var id: Int
  var title: String
}

private struct Padded: Equatable {
  var flag: Bool
  var number: Int
}

private struct ToggleRow: Action {}
