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
    // then: what is left of the storage is small (compacted while it was being consumed)
    XCTAssertLessThanOrEqual(queue.capacity, 2 * Queue<Int>.compactionThreshold)
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

  func test_queue_thatNeverDrains_keepsMemoryProportionalToWhatWaits() {
    // given: a burst of 10,000 elements
    var queue = Queue<Int>()
    for value in 0..<10_000 { queue.append(value) }
    // when: consumed down to 10 waiting, then one in, one out, never empty
    var expected = 0
    while queue.count > 10 {
      XCTAssertEqual(queue.popFirst(), expected)
      expected += 1
    }
    for value in 10_000..<12_000 {
      queue.append(value)
      XCTAssertEqual(queue.popFirst(), expected)
      expected += 1
    }
    // then
    XCTAssertEqual(queue.count, 10)
    XCTAssertLessThanOrEqual(queue.capacity, 4 * (queue.count + Queue<Int>.compactionThreshold))
    XCTAssertEqual(queue.first, expected)
  }

  func test_queue_matchesAnArrayUnderRandomAppendsAndPops() {
    for seed in 1...20 {
      // given
      var generator = QueueTestGenerator(seed: UInt64(seed))
      var queue = Queue<Int>()
      var model: [Int] = []
      var next = 0
      // when: random bursts of appends and pops
      for _ in 0..<2_000 {
        if generator.next() % 3 != 0 {
          for _ in 0..<Int(generator.next() % 8) {
            queue.append(next)
            model.append(next)
            next += 1
          }
        } else {
          for _ in 0..<Int(generator.next() % 12) {
            XCTAssertEqual(
              queue.popFirst(), model.isEmpty ? nil : model.removeFirst(), "seed \(seed)")
          }
        }
        // then
        XCTAssertEqual(queue.count, model.count, "seed \(seed)")
        XCTAssertEqual(queue.first, model.first, "seed \(seed)")
        let bound = 4 * (model.count + Queue<Int>.compactionThreshold) + 16
        if queue.capacity > bound {
          XCTFail("seed \(seed): capacity \(queue.capacity) for \(model.count) waiting")
          break
        }
      }
    }
  }

  func test_queue_releasesEveryElementWhenPoppedAcrossCompactions() {
    // given
    final class Token {}
    var queue = Queue<Token>()
    var tokens: [Weak] = []
    for _ in 0..<500 {
      let token = Token()
      tokens.append(Weak(token))
      queue.append(token)
    }
    // when: all but the last 5 popped
    for _ in 0..<495 { _ = queue.popFirst() }
    // then
    XCTAssertEqual(tokens.filter { $0.object != nil }.count, 5)
    queue.removeAll()
    XCTAssertTrue(tokens.allSatisfy { $0.object == nil })
  }
}

private struct Weak {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// SplitMix64: a small, seeded generator.
private struct QueueTestGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
