import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class IdentifiedListChangesTests: XCTestCase {
  private struct Item: Identifiable, Equatable {
    var id: Int
    var value: Int
  }

  /// The changes by brute force: every id whose element differs, with the new element.
  private func expectedChanges(
    from old: IdentifiedList<Item>, to new: IdentifiedList<Item>
  ) -> [Int: Item?] {
    var result: [Int: Item?] = [:]
    let before = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0) })
    let after = Dictionary(uniqueKeysWithValues: new.map { ($0.id, $0) })
    for (id, element) in after where before[id] != element { result[id] = .some(element) }
    for id in before.keys where after[id] == nil { result[id] = .some(nil) }
    return result
  }

  private func reportedChanges(
    from old: IdentifiedList<Item>, to new: IdentifiedList<Item>
  ) -> [Int: Item?] {
    var result: [Int: Item?] = [:]
    new.forEachChange(from: old) { id, element in
      XCTAssertFalse(result.keys.contains(id), "id \(id) reported twice")
      result[id] = .some(element)
    }
    return result
  }

  func test_forEachChange_matchesABruteForceDiffOverRandomEdits() {
    var random = SeededRandomNumberGenerator(seed: 29)
    var list = IdentifiedList(uniqueElements: (0..<500).map { Item(id: $0, value: 0) })
    var nextID = 500
    for round in 0..<300 {
      let old = list
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        switch Int.random(in: 0..<5, using: &random) {
        case 0 where !list.isEmpty:
          list[Int.random(in: 0..<list.count, using: &random)].value += 1
        case 1:
          list.insert(
            Item(id: nextID, value: 0), at: Int.random(in: 0...list.count, using: &random))
          nextID += 1
        case 2 where !list.isEmpty:
          list.remove(at: Int.random(in: 0..<list.count, using: &random))
        case 3 where list.count > 1:
          list.swapAt(
            Int.random(in: 0..<list.count, using: &random),
            Int.random(in: 0..<list.count, using: &random))
        default:
          // An assignment of an equal value: not a change.
          if let first = list.first { list[0] = first }
        }
      }
      XCTAssertEqual(
        reportedChanges(from: old, to: list), expectedChanges(from: old, to: list),
        "round \(round)")
    }
  }

  func test_forEachChange_ofIdenticalVersionsReportsNothing_andOneChangeReportsOneID() {
    // given
    let old = IdentifiedList(uniqueElements: (0..<100_000).map { Item(id: $0, value: 0) })
    var new = old
    // then
    XCTAssertTrue(new.isIdentical(to: old))
    XCTAssertEqual(reportedChanges(from: old, to: new).count, 0)
    // when
    new[id: 77_777]?.value = 1
    // then: only the changed leaf is compared
    let ranges = new.changedRanges(from: old)
    XCTAssertLessThanOrEqual(ranges.new.count, 32)
    XCTAssertEqual(reportedChanges(from: old, to: new).keys.sorted(), [77_777])
  }

  func test_removeFirstRemoveLastAndPopLast() {
    var list: IdentifiedList<Item> = [
      Item(id: 1, value: 0), Item(id: 2, value: 0), Item(id: 3, value: 0),
    ]
    XCTAssertEqual(list.removeFirst().id, 1)
    XCTAssertEqual(list.removeLast().id, 3)
    XCTAssertEqual(list.popLast()?.id, 2)
    XCTAssertNil(list.popLast())
    XCTAssertFalse(list.contains(id: 2))
  }
}
