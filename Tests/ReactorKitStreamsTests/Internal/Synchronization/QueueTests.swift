import XCTest

@testable import ReactorKitStreams

final class QueueTests: XCTestCase {
  func test_queue_popsInAppendOrder() {
    // given
    var queue = Queue<Int>()
    // when
    for value in 0..<5 { queue.append(value) }
    var popped: [Int] = []
    while let value = queue.popFirst() { popped.append(value) }
    // then
    XCTAssertEqual(popped, [0, 1, 2, 3, 4])
    XCTAssertTrue(queue.isEmpty)
    XCTAssertNil(queue.popFirst())
  }

  func test_queue_reusesSlotsAfterDraining() {
    // given
    var queue = Queue<Int>()
    // when: the queue repeatedly goes from empty to one element and back
    var popped: [Int] = []
    for value in 0..<100 {
      queue.append(value)
      XCTAssertEqual(queue.count, 1)
      popped.append(queue.popFirst()!)
    }
    // then
    XCTAssertEqual(popped, Array(0..<100))
    XCTAssertEqual(queue.storage.count, 1)
  }

  func test_queue_keepsOrderWhenInterleavingAcrossCompactions() {
    // given
    var queue = Queue<Int>()
    var expected: [Int] = []
    var popped: [Int] = []
    var next = 0
    // when: two appends per pop, so consumed slots pile up at the front until compaction
    for _ in 0..<1_000 {
      queue.append(next)
      expected.append(next)
      next += 1
      queue.append(next)
      expected.append(next)
      next += 1
      popped.append(queue.popFirst()!)
    }
    while let value = queue.popFirst() { popped.append(value) }
    // then
    XCTAssertEqual(popped, expected)
    XCTAssertEqual(queue.count, 0)
  }

  func test_queue_releasesLargeStorageOnceDrained() {
    // given
    var queue = Queue<Int>()
    for value in 0..<1_000 { queue.append(value) }
    // when
    while queue.popFirst() != nil {}
    // then
    XCTAssertEqual(queue.storage.count, 0)
    queue.append(7)
    XCTAssertEqual(queue.popFirst(), 7)
  }

  func test_queue_releasesPoppedElementsAtOnce() {
    // given
    final class Token {}
    var queue = Queue<Token>()
    weak var released: Token?
    do {
      let token = Token()
      released = token
      queue.append(token)
      queue.append(Token())
    }
    // when
    _ = queue.popFirst()
    // then
    XCTAssertNil(released)
    XCTAssertEqual(queue.count, 1)
  }

  func test_queue_removeAllEmptiesTheQueue() {
    // given
    var queue = Queue<Int>()
    queue.append(1)
    queue.append(2)
    _ = queue.popFirst()
    // when
    queue.removeAll()
    // then
    XCTAssertTrue(queue.isEmpty)
    queue.append(3)
    XCTAssertEqual(queue.popFirst(), 3)
  }
}
