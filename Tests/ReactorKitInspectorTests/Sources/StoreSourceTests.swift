import Foundation
import ReactorKit
import XCTest

@testable import ReactorKitInspector

/// The store side of the inspector, without the server: what it records, and how time travel
/// and dispatch from the page reach the store.
final class StoreSourceTests: XCTestCase {
  private func source(of inspector: Inspector) throws -> any InspectedSource {
    try XCTUnwrap(inspector.core.source(named: "store"))
  }

  func testRecordsTheInitialStateThenEachActionWithTheStateAfterIt() throws {
    let (inspector, store) = try makeInspectedStore()
    defer { inspector.close() }

    store.dispatch(NotesAction.increment)
    store.dispatch(NotesAction.add("milk"))

    let events = inspector.core.ring.events(after: 0).events
    XCTAssertEqual(events.map(\.kind), [.note, .action, .action])
    XCTAssertEqual(events.first?.note, "store: initial state")
    XCTAssertEqual(events.map(\.source.name), ["store", "store", "store"])
    XCTAssertEqual(events[1].value as? NotesAction, .increment)
    XCTAssertEqual((events[2].after as? NotesState)?.notes, ["milk"])
    XCTAssertEqual((events[2].after as? NotesState)?.count, 1)
  }

  func testJumpShowsARecordedStateAndGoLiveReturns() throws {
    let (inspector, store) = try makeInspectedStore()
    defer { inspector.close() }
    store.dispatch(NotesAction.increment)
    store.dispatch(NotesAction.increment)
    let source = try source(of: inspector)
    let first = try XCTUnwrap(inspector.core.ring.event(2))
    XCTAssertTrue(source.canJump)

    XCTAssertTrue(source.jump(to: first.sequence, state: first.after as Any))
    XCTAssertEqual(store.currentState.count, 1)
    XCTAssertEqual(source.jumpTarget, first.sequence)

    XCTAssertTrue(source.goLive())
    XCTAssertEqual(store.currentState.count, 2)
    XCTAssertNil(source.jumpTarget)
    let kinds = inspector.core.ring.events(after: 3).events.map(\.kind)
    XCTAssertEqual(kinds, [.jump, .jump])
  }

  func testAnAppActionWhileInThePastContinuesFromThatState() throws {
    let (inspector, store) = try makeInspectedStore()
    defer { inspector.close() }
    store.dispatch(NotesAction.increment)
    store.dispatch(NotesAction.increment)
    let source = try source(of: inspector)
    let first = try XCTUnwrap(inspector.core.ring.event(2))
    XCTAssertTrue(source.jump(to: first.sequence, state: first.after as Any))

    store.dispatch(NotesAction.increment)

    XCTAssertEqual(store.currentState.count, 2)
    XCTAssertNil(source.jumpTarget)
    let notes = inspector.core.ring.events(after: 0).events.compactMap(\.note)
    XCTAssertTrue(notes.contains { $0.contains("continues from that state") }, "\(notes)")
  }

  func testDispatchFromThePageReachesTheStoreAndCurrentStateReadsIt() throws {
    let (inspector, store) = try makeInspectedStore()
    defer { inspector.close() }
    let source = try source(of: inspector)
    XCTAssertTrue(source.canDispatch)

    XCTAssertTrue(source.dispatch(NotesAction.add("from the page")))

    XCTAssertEqual(store.currentState.notes, ["from the page"])
    XCTAssertEqual((source.currentState() as? NotesState)?.notes, ["from the page"])
  }

  func testNothingIsRecordedWhilePaused() throws {
    let (inspector, store) = try makeInspectedStore()
    defer { inspector.close() }
    let before = inspector.core.ring.latestSequence

    inspector.core.setPaused(true)
    store.dispatch(NotesAction.increment)
    inspector.core.setPaused(false)
    store.dispatch(NotesAction.increment)

    let actions = inspector.core.ring.events(after: before).events.filter { $0.kind == .action }
    XCTAssertEqual(actions.count, 1)
    XCTAssertEqual((actions.first?.after as? NotesState)?.count, 2)
  }
}
