import XCTest

@testable import ReactorKitStreams

/// Every production owner of ``AtomicSlot``s keeps its slots where its `Slots` enum says: a
/// wrong index fails here instead of corrupting memory.
final class AtomicSlotLayoutTests: XCTestCase {
  func test_layout_ofEveryStreamsOwner() {
    assertLayout(SubscriptionLink.self, SubscriptionLink.Slots.self)
    assertLayout(ExternalSubscription.self, ExternalSubscription.Slots.self)
    assertLayout(Sink<Int>.self, Sink<Int>.Slots.self)
    assertLayout(Sink<String>.self, Sink<String>.Slots.self)
    assertLayout(SubscriptionHandle.self, SubscriptionHandle.Slots.self)
    assertLayout(SingleAssignmentDisposable.self, SingleAssignmentDisposable.Slots.self)
    assertLayout(AnonymousDisposable.self, AnonymousDisposable.Slots.self)
    assertLayout(BooleanDisposable.self, BooleanDisposable.Slots.self)
    assertLayout(SubjectEntry<Int>.self, SubjectEntry<Int>.Slots.self)
    assertLayout(SubjectCore<String>.self, SubjectCore<String>.Slots.self)
    assertLayout(CatchReplacement.self, CatchReplacement.Slots.self)
    assertLayout(
      MulticastConnection<PublishSubject<Int>>.self,
      MulticastConnection<PublishSubject<Int>>.Slots.self)
  }

  private func assertLayout<Index: AtomicSlotIndex>(
    _ type: AnyClass, _ slots: Index.Type, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(atomicSlotLayoutProblems(of: type, slots: slots), [], file: file, line: line)
  }
}
