import XCTest

@testable import ReactorKitStreams

final class ExclusiveCellTests: XCTestCase {
  final class Tracked {
    let onDeinit: () -> Void
    init(onDeinit: @escaping () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  final class Owner {
    let cell: ExclusiveCell<[Tracked]>
    init(_ value: [Tracked]) { cell = ExclusiveCell(value) }
  }

  func test_value_isModifiedInPlaceThroughALetCell() {
    // given
    let cell = ExclusiveCell([1, 2])
    // when
    cell.value.append(3)
    cell.value[0] = 10
    // then
    XCTAssertEqual(cell.value, [10, 2, 3])
  }

  func test_value_isReleasedWithItsOwner() {
    // given
    var released = 0
    var owner: Owner? = Owner([Tracked { released += 1 }])
    owner?.cell.value.append(Tracked { released += 1 })
    XCTAssertEqual(released, 0)
    // when
    owner = nil
    // then
    XCTAssertEqual(released, 2)
  }
}
