import Foundation
import XCTest

import func ReactorKitTesting.spinUntil

@testable import ReactorKitStreams

final class ThreadLocalTests: XCTestCase {
  final class Tracked {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  static let word = ThreadLocalWord()
  static let reference = ThreadLocalReference<Tracked>()

  func test_word_isZeroUntilSetAndPerThread() {
    // given
    let other = AtomicBox<Int>(-1)
    XCTAssertEqual(Self.word.value, 0)
    // when
    Self.word.value = 7
    let thread = Thread {
      other.store(Int(Self.word.value), ordering: .releasing)
      Self.word.value = 9
    }
    thread.start()
    XCTAssertTrue(
      spinUntil { other.load(ordering: .acquiring) != -1 },
      "waited 10 s for: other.load(ordering: .acquiring) != -1")
    // then
    XCTAssertEqual(other.load(ordering: .acquiring), 0)
    XCTAssertEqual(Self.word.value, 7)
  }

  func test_reference_isPerThreadAndReleasedWhenItsThreadExits() {
    // given
    let released = AtomicBox<Int>(0)
    let sawNil = AtomicBox<Bool>(false)
    let sawObject = AtomicBox<Bool>(false)
    // when
    let thread = Thread {
      sawNil.store(Self.reference.current == nil, ordering: .relaxed)
      Self.reference.set(Tracked { released.wrappingAdd(1, ordering: .releasing) })
      sawObject.store(Self.reference.current != nil, ordering: .relaxed)
    }
    thread.start()
    let deadline = Date().addingTimeInterval(10)
    while released.load(ordering: .acquiring) == 0 && Date() < deadline { usleep(1_000) }
    // then
    XCTAssertTrue(sawNil.load(ordering: .relaxed))
    XCTAssertTrue(sawObject.load(ordering: .relaxed))
    XCTAssertEqual(released.load(ordering: .acquiring), 1)
    XCTAssertNil(Self.reference.current)
  }
}
