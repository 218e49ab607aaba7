import ReactorKit
import XCTest

@testable import ReactorKitInspector

final class RetainedBytesTests: XCTestCase {
  private struct Row: Identifiable, Equatable {
    var id: Int
    var done = false
  }

  private struct Rows {
    var rows: IdentifiedList<Row>
    var counter = 0
  }

  func test_identifiedList_countsOnlyWhatAVersionDoesNotShare() {
    // given: 100,000 rows
    var sizes = RetainedBytes()
    var state = Rows(rows: IdentifiedList(uniqueElements: (0..<100_000).map { Row(id: $0) }))
    // when
    let first = sizes.estimate(state)
    state.counter += 1
    let unchanged = sizes.estimate(state)
    state.rows[id: 50_000]?.done = true
    let oneChange = sizes.estimate(state)
    // then: the first version is the whole list, the next ones only their new nodes
    XCTAssertGreaterThan(first, 100_000 * MemoryLayout<Row>.stride)
    XCTAssertLessThan(unchanged, 1_024)
    XCTAssertLessThan(oneChange, 16 * 1_024)
  }
}
