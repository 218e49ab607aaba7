import ReactorKitTesting
import XCTest

@testable import ReactorKitStreams

final class AtomicsTests: XCTestCase {
  func test_atomicSlot_viewsAddressTheSlotsStoredProperties() {
    // given: slots declared first, in a generic class with other properties after them
    let owner = SlotOwner<String>()
    // then: the views reach the stored properties themselves
    XCTAssertEqual(owner.first.address, owner.addressOfFirst())
    XCTAssertEqual(owner.second.address, owner.addressOfSecond())
    XCTAssertEqual(owner.first.load(ordering: .relaxed), 7)
    XCTAssertEqual(owner.second.load(ordering: .relaxed), true)
    // when
    owner.first.store(9, ordering: .releasing)
    owner.second.store(false, ordering: .releasing)
    // then
    XCTAssertEqual(owner.first.load(ordering: .acquiring), 9)
    XCTAssertFalse(owner.second.load(ordering: .acquiring))
    XCTAssertEqual(owner.other, "tail")
  }

  func test_atomicSlot_inSubclassCountsTheBaseClassWords() {
    // given: a subclass whose base holds one weak reference
    let owner = SlotSubclass()
    // then
    XCTAssertEqual(owner.counter.address, owner.addressOfCounter())
    XCTAssertEqual(owner.counter.load(ordering: .relaxed), 3)
    XCTAssertNil(owner.weakOwner)
  }

  func test_atomicSlotLayout_acceptsTheTestOwners() {
    XCTAssertEqual(
      atomicSlotLayoutProblems(of: SlotOwner<String>.self, slots: SlotOwner<String>.Slots.self), [])
    XCTAssertEqual(
      atomicSlotLayoutProblems(of: SlotSubclass.self, slots: SlotSubclass.Slots.self), [])
  }

  func test_atomicSlotLayout_reportsAWrongIndexAMissingPropertyAndAnUndeclaredSlot() {
    // given: indices that disagree with the stored properties
    let wrongIndex = atomicSlotLayoutProblems(of: SlotSubclass.self, slots: ForgotTheBase.self)
    let missing = atomicSlotLayoutProblems(of: SlotOwner<Int>.self, slots: NoSuchSlot.self)
    // then
    XCTAssertEqual(
      wrongIndex,
      [
        "SlotSubclass.counterSlot is at byte 8 of the stored properties, but slot counter says "
          + "word 0 (byte 0)."
      ])
    XCTAssertEqual(
      missing,
      [
        "SlotOwner<Int> declares slot missing but has no stored property missingSlot.",
        "SlotOwner<Int>.firstSlot looks like an atomic slot but NoSuchSlot omits it.",
        "SlotOwner<Int>.secondSlot looks like an atomic slot but NoSuchSlot omits it.",
      ])
  }

  func test_atomicBox_operationsFollowSynchronizationAtomic() {
    // given
    let box = AtomicBox<Int>(5)
    // then
    XCTAssertEqual(box.exchange(6, ordering: .acquiringAndReleasing), 5)
    XCTAssertTrue(box.compareExchange(expected: 6, desired: 7, ordering: .acquiring) == (true, 6))
    XCTAssertTrue(box.compareExchange(expected: 6, desired: 8, ordering: .releasing) == (false, 7))
    XCTAssertTrue(box.wrappingAdd(3, ordering: .relaxed) == (7, 10))
    XCTAssertTrue(box.wrappingSubtract(4, ordering: .relaxed) == (10, 6))
    XCTAssertTrue(box.bitwiseOr(0b1001, ordering: .relaxed) == (6, 0b1111))
    XCTAssertTrue(box.bitwiseAnd(0b0101, ordering: .relaxed) == (0b1111, 0b0101))
    XCTAssertTrue(box.add(1, ordering: .sequentiallyConsistent) == (5, 6))
    XCTAssertEqual(box.load(ordering: .sequentiallyConsistent), 6)
  }

  func test_unsafeAtomic_wrapsAroundAndKeepsTheBitPattern() {
    // given
    let unsigned = AtomicBox<UInt>(UInt.max)
    let wide = AtomicBox<UInt64>(UInt64.max - 1)
    let flag = AtomicBox<Bool>(false)
    let byte = AtomicBox<UInt8>(200)
    // when
    let unsignedSum = unsigned.wrappingAdd(2, ordering: .relaxed)
    let wideSum = wide.wrappingAdd(3, ordering: .relaxed)
    // then
    XCTAssertTrue(unsignedSum == (UInt.max, 1))
    XCTAssertTrue(wideSum == (UInt64.max - 1, 1))
    XCTAssertEqual(wide.load(ordering: .relaxed), 1)
    XCTAssertFalse(flag.exchange(true, ordering: .relaxed))
    XCTAssertTrue(
      flag.compareExchange(expected: true, desired: false, ordering: .relaxed) == (true, true))
    XCTAssertTrue(
      byte.compareExchange(expected: 200, desired: 255, ordering: .relaxed) == (true, 200))
    XCTAssertEqual(byte.load(ordering: .relaxed), 255)
  }

  func test_unsafeAtomic_inRawMemory() {
    // given: a word in a raw allocation, as in an engine's state block
    let block = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 8)
    defer { block.deallocate() }
    let counter = UnsafeAtomic<Int>.initialize(at: block + 8, to: 1)
    // when
    runConcurrently(threads: 4) { _ in
      for _ in 0..<1000 { counter.wrappingAdd(1, ordering: .relaxed) }
    }
    // then
    XCTAssertEqual(UnsafeAtomic<Int>(at: block + 8).load(ordering: .acquiring), 4001)
  }

  func test_atomicSlot_countsConcurrentIncrements() {
    // given
    let owner = SlotOwner<Int>()
    // when
    runConcurrently(threads: 4) { _ in
      for _ in 0..<1000 { owner.first.wrappingAdd(1, ordering: .acquiringAndReleasing) }
    }
    // then
    XCTAssertEqual(owner.first.load(ordering: .acquiring), 4007)
  }
}

/// Two atomic slots first, then other stored properties, in a generic class.
private final class SlotOwner<Tail>: @unchecked Sendable {
  // Safety: the slots are only accessed atomically, through `first` and `second`; `tail`
  // is immutable once set.
  enum Slots: Int, AtomicSlotIndex { case first, second }
  var firstSlot = AtomicSlot(7)
  var secondSlot = AtomicSlot(true)
  var tail: Tail?
  var other = "tail"

  var first: UnsafeAtomic<Int> { UnsafeAtomic(Slots.first, of: self) }
  var second: UnsafeAtomic<Bool> { UnsafeAtomic(Slots.second, of: self) }

  func addressOfFirst() -> UnsafeMutablePointer<Int> {
    withUnsafeMutablePointer(to: &firstSlot.bits) { $0 }
  }
  func addressOfSecond() -> UnsafeMutablePointer<Int> {
    withUnsafeMutablePointer(to: &secondSlot.bits) { $0 }
  }
}

private class WeakBase: @unchecked Sendable {
  // Safety: written only in `init`.
  weak var weakOwner: AnyObject?
}

/// Slot 1: the base's weak reference is word 0.
private final class SlotSubclass: WeakBase, @unchecked Sendable {
  // Safety: the slot is only accessed atomically, through `counter`.
  enum Slots: Int, AtomicSlotIndex { case counter = 1 }
  var counterSlot = AtomicSlot(3)
  var name = "subclass"

  var counter: UnsafeAtomic<Int> { UnsafeAtomic(Slots.counter, of: self) }

  func addressOfCounter() -> UnsafeMutablePointer<Int> {
    withUnsafeMutablePointer(to: &counterSlot.bits) { $0 }
  }
}

/// A subclass's slot numbered as if the base had no stored property.
private enum ForgotTheBase: Int, AtomicSlotIndex { case counter }
/// A slot that no stored property holds.
private enum NoSuchSlot: Int, AtomicSlotIndex { case missing }
