import Foundation
import ReactorKit
import XCTest

@testable import ReactorKitInspector

/// The inspector's memory is bounded in bytes, not only in events (issue 22, item 4): before,
/// the ring kept its 10,000 events whatever each one held, and a store's list copied on each
/// change made the memory grow with events × list length.
final class EventRingBudgetTests: XCTestCase {
  private let source = InspectorNoteSource.shared.info

  func test_append_overTheBudget_dropsTheOldestAndReportsThemAsMissed() {
    // given
    let ring = EventRing(capacity: 100, byteBudget: 1_000)
    // when: ten events of 300 bytes each
    for index in 0..<10 {
      ring.append(kind: .note, source: source, note: "n\(index)", bytes: 300)
    }
    // then: the three newest fit
    XCTAssertEqual(ring.retainedBytes, 900)
    let batch = ring.events(after: 0)
    XCTAssertEqual(batch.missed, 7)
    XCTAssertEqual(batch.events.map(\.sequence), [8, 9, 10])
    XCTAssertEqual(batch.events.map(\.note), ["n7", "n8", "n9"])
    XCTAssertNil(ring.event(7))
    XCTAssertEqual(ring.events(after: 8).missed, 0)
  }

  func test_append_oneEventLargerThanTheBudget_isKeptAlone() {
    // given
    let ring = EventRing(capacity: 10, byteBudget: 1_000)
    ring.append(kind: .note, source: source, note: "small", bytes: 100)
    // when
    ring.append(kind: .note, source: source, note: "huge", bytes: 5_000)
    // then
    XCTAssertEqual(ring.events(after: 0).events.map(\.note), ["huge"])
    XCTAssertEqual(ring.retainedBytes, 5_000)
    // when: the next event pushes it out
    ring.append(kind: .note, source: source, note: "next", bytes: 100)
    XCTAssertEqual(ring.events(after: 0).events.map(\.note), ["next"])
    XCTAssertEqual(ring.retainedBytes, 100)
  }

  func test_droppedEvents_releaseTheirValues() {
    // given
    let ring = EventRing(capacity: 10, byteBudget: 100)
    weak var released: Probe?
    do {
      let probe = Probe()
      released = probe
      ring.append(kind: .action, source: source, value: probe, after: probe, bytes: 80)
    }
    XCTAssertNotNil(released)
    // when
    ring.append(kind: .note, source: source, note: "next", bytes: 80)
    // then
    XCTAssertNil(released, "the dropped event still holds its values")
  }

  func test_cachedRenderings_countTowardTheBudget() {
    // given
    let ring = EventRing(capacity: 10, byteBudget: 1_000)
    ring.append(kind: .note, source: source, note: "a", bytes: 100)
    ring.append(kind: .note, source: source, note: "b", bytes: 100)
    // when
    ring.cacheRendering(String(repeating: "x", count: 700), for: 1)
    // then
    XCTAssertEqual(ring.retainedBytes, 900)
    ring.append(kind: .note, source: source, note: "c", bytes: 200)
    XCTAssertEqual(ring.events(after: 0).events.map(\.note), ["b", "c"])
    XCTAssertEqual(ring.retainedBytes, 300)
  }

  func test_append_overTheBudgetIntoARenderedSlot_leavesTheSlotWithoutARendering() {
    // given: event 1 rendered (a heap string), event 2 small
    let ring = EventRing(capacity: 2, byteBudget: 1_000)
    ring.append(kind: .note, source: source, note: "a", bytes: 100)
    ring.cacheRendering(String(repeating: "x", count: 300), for: 1)
    ring.append(kind: .note, source: source, note: "b", bytes: 100)
    // when: event 3 goes into event 1's slot and takes the ring over its budget
    ring.append(kind: .note, source: source, note: "c", bytes: 950)
    // then: event 1's rendering left with it, not kept for event 3
    let batch = ring.events(after: 0)
    XCTAssertEqual(batch.events.map(\.note), ["c"])
    XCTAssertEqual(batch.rendered, [nil])
    XCTAssertEqual(ring.retainedBytes, 950)
    // when: the slot is overwritten again, and the ring goes away
    ring.append(kind: .note, source: source, note: "d", bytes: 100)
    ring.append(kind: .note, source: source, note: "e", bytes: 100)
    XCTAssertEqual(ring.events(after: 0).events.map(\.note), ["d", "e"])
  }

  func test_removeAll_resetsTheCount() {
    let ring = EventRing(capacity: 10, byteBudget: 1_000)
    ring.append(kind: .note, source: source, note: "a", bytes: 600)
    ring.removeAll()
    XCTAssertEqual(ring.retainedBytes, 0)
    ring.append(kind: .note, source: source, note: "b", bytes: 600)
    XCTAssertEqual(ring.events(after: 0).events.map(\.note), ["b"])
  }

  func test_overwritingByCapacity_subtractsTheOverwrittenEvent() {
    let ring = EventRing(capacity: 3, byteBudget: 10_000)
    for index in 0..<10 {
      ring.append(kind: .note, source: source, note: "n\(index)", bytes: 100 + index)
    }
    XCTAssertEqual(ring.retainedBytes, 107 + 108 + 109)
  }

  // MARK: - Through a store

  func test_inspector_storeCopyingALargeList_staysWithinItsByteBudget() throws {
    // given: a 100,000-element list copied on every change (800 KB per recorded state)
    let inspector = try Inspector(limits: InspectorLimits(maximumRetainedBytes: 16 << 20))
    let store = Store(
      reducer: Reducer<[Int]> { state, _ in state[0] += 1 },
      state: Array(repeating: 0, count: 100_000),
      plugins: [inspector.forStore(source: "list")])
    // when
    for _ in 0..<60 { store.dispatch(BudgetAction.bump) }
    // then
    let ring = inspector.core.ring
    XCTAssertLessThanOrEqual(ring.retainedBytes, 16 << 20)
    XCTAssertGreaterThan(ring.retainedBytes, 8 << 20)
    let batch = ring.events(after: 0)
    XCTAssertGreaterThan(batch.missed, 30, "the oldest states were not dropped")
    XCTAssertEqual(batch.events.last?.sequence, 61)
    XCTAssertEqual(store.currentState[0], 60)
  }

  func test_inspector_storeWithAnUnchangedList_countsItsStorageOnce() throws {
    // given
    let inspector = try Inspector(limits: InspectorLimits(maximumRetainedBytes: 16 << 20))
    let store = Store(
      reducer: Reducer<SharedList> { state, _ in state.count += 1 },
      state: SharedList(),
      plugins: [inspector.forStore(source: "list")])
    // when
    for _ in 0..<1_000 { store.dispatch(BudgetAction.bump) }
    // then: the list's 800 KB once, then about the event overhead per event
    let ring = inspector.core.ring
    XCTAssertLessThan(ring.retainedBytes, 1 << 20)
    XCTAssertEqual(ring.events(after: 0).missed, 0)
    withExtendedLifetime(store) {}
  }
}

private final class Probe: Sendable {}

private enum BudgetAction: Action { case bump }

private struct SharedList: Sendable {
  var items = Array(repeating: 0, count: 100_000)
  var count = 0
}
