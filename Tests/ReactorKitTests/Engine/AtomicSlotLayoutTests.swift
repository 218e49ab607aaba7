import XCTest

@testable import ReactorKit
@testable import ReactorKitStreams

/// Every production owner of ``AtomicSlot``s in the reactor, store and observation engines
/// keeps its slots where its `Slots` enum says: a wrong index fails here instead of corrupting
/// memory (see `atomicSlotLayoutProblems(of:slots:)`).
final class AtomicSlotLayoutTests: XCTestCase {
  func test_layout_ofEveryEngineOwner() {
    assertLayout(OwnedStorage.self, OwnedStorage.Slots.self)
    assertLayout(ReactorCore<Int, Int, Int>.self, ReactorCore<Int, Int, Int>.Slots.self)
    assertLayout(
      ReactorCore<String, [Int], Double>.self, ReactorCore<String, [Int], Double>.Slots.self)
    assertLayout(ActionSubject<Int>.self, ActionSubject<Int>.Slots.self)
    assertLayout(Store<Int>.self, Store<Int>.Slots.self)
    assertLayout(StoreCore<Int>.self, StoreCore<Int>.Slots.self)
    assertLayout(StoreStateStorage<[String]>.self, StoreStateStorage<[String]>.Slots.self)
    assertLayout(StoreChainEnd<Int>.self, StoreChainEnd<Int>.Slots.self)
    assertLayout(StoreSubscription<Int>.self, StoreSubscription<Int>.Slots.self)
    assertLayout(ActionCastMisses.self, ActionCastMisses.Slots.self)
    assertLayout(ObservedState<Int>.self, ObservedState<Int>.Slots.self)
  }

  private func assertLayout<Index: AtomicSlotIndex>(
    _ type: AnyClass, _ slots: Index.Type, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(atomicSlotLayoutProblems(of: type, slots: slots), [], file: file, line: line)
  }
}
