import XCTest

@testable import ReactorKitInspector

/// Who keeps a connection slot and who is closed to make room, without sockets.
final class ConnectionSlotsTests: XCTestCase {
  private func slots(
    connections: Int = 6, unauthenticated: Int = 3, streams: Int = 2
  ) -> ConnectionSlots {
    var limits = InspectorLimits.default
    limits.maximumConnections = connections
    limits.maximumUnauthenticatedConnections = unauthenticated
    limits.maximumEventStreams = streams
    return ConnectionSlots(limits: limits)
  }

  private func admit(_ slots: inout ConnectionSlots, _ descriptor: Int32) -> (
    Int, [Int32], interrupting: [Int32]
  )? {
    guard case .admitted(let id, let closing, let interrupting) = slots.admit(descriptor)
    else { return nil }
    return (id, closing, interrupting)
  }

  func test_admit_beyondTheUnauthenticatedQuota_closesTheOldestUnauthenticated() throws {
    // given
    var slots = slots()
    let first = try XCTUnwrap(admit(&slots, 10))
    _ = try XCTUnwrap(admit(&slots, 11))
    slots.update(first.0, busy: false, partialRequest: true)  // activity doesn't keep a slot
    _ = try XCTUnwrap(admit(&slots, 12))
    // when
    let fourth = try XCTUnwrap(admit(&slots, 13))
    // then
    XCTAssertEqual(fourth.1, [10])
    XCTAssertEqual(fourth.interrupting, [], "an idle one closes by itself")
    XCTAssertFalse(slots.holds(first.0))
    XCTAssertEqual(slots.count(.unauthenticated), 3)
  }

  func test_admit_closesABusyUnauthenticatedConnectionLast() throws {
    var slots = slots(unauthenticated: 2)
    let first = try XCTUnwrap(admit(&slots, 10))
    let second = try XCTUnwrap(admit(&slots, 11))
    slots.update(first.0, busy: true, partialRequest: false)
    XCTAssertEqual(try XCTUnwrap(admit(&slots, 12)).1, [11])
    XCTAssertTrue(slots.holds(first.0))
    XCTAssertFalse(slots.holds(second.0))
    // a client that reads its answer slowly doesn't keep the slot for the write timeout
    slots.update(2, busy: true, partialRequest: false)
    let fourth = try XCTUnwrap(admit(&slots, 13))
    XCTAssertEqual(fourth.1, [10])
    XCTAssertEqual(fourth.interrupting, [10], "a busy connection is shut down")
  }

  func test_authenticated_leavesTheQuotaAndIsNotClosedForUnauthenticatedNewcomers() throws {
    // given an authenticated connection, then more newcomers than the quota
    var slots = slots()
    let page = try XCTUnwrap(admit(&slots, 10))
    slots.authenticate(page.0)
    for descriptor in Int32(11)...Int32(20) { _ = try XCTUnwrap(admit(&slots, descriptor)) }
    // then
    XCTAssertTrue(slots.holds(page.0))
    XCTAssertEqual(slots.count(.authenticated), 1)
    XCTAssertEqual(slots.count(.unauthenticated), 3)
  }

  func test_streams_areBoundedAndLeaveRoomForRequests() throws {
    var slots = slots(connections: 4, unauthenticated: 4, streams: 8)
    XCTAssertEqual(slots.maximumStreams, 3, "at most all connections but one")
    var ids: [Int] = []
    for descriptor in Int32(10)...Int32(13) {
      let id = try XCTUnwrap(admit(&slots, descriptor)).0
      slots.authenticate(id)
      ids.append(id)
    }
    XCTAssertEqual(ids.map { slots.beginStream($0) }, [true, true, true, false])
    // when all connections are taken, the idle authenticated one is closed for a newcomer
    XCTAssertEqual(try XCTUnwrap(admit(&slots, 14)).1, [13])
    XCTAssertEqual(slots.count(.stream), 3)
  }

  func test_admit_everyConnectionBusy_refuses() throws {
    var slots = slots(connections: 2, unauthenticated: 2, streams: 1)
    let stream = try XCTUnwrap(admit(&slots, 10)).0
    slots.authenticate(stream)
    XCTAssertTrue(slots.beginStream(stream))
    let request = try XCTUnwrap(admit(&slots, 11)).0
    slots.authenticate(request)
    slots.update(request, busy: false, partialRequest: true)
    XCTAssertEqual(slots.admit(12), .refused)
    slots.remove(stream)
    XCTAssertNotNil(admit(&slots, 12))
  }

  func test_authenticated_idleConnections_closeLeastRecentlyActiveFirst() throws {
    var slots = slots(connections: 3, unauthenticated: 3, streams: 1)
    let ids = try (Int32(10)...Int32(12)).map { try XCTUnwrap(admit(&slots, $0)).0 }
    ids.forEach { slots.authenticate($0) }
    slots.update(ids[0], busy: false, partialRequest: false)  // the most recently active now
    XCTAssertEqual(try XCTUnwrap(admit(&slots, 13)).1, [11])
  }

  func test_admit_allConnectionsTaken_closesAnIdleAuthenticatedBeforeABusyUnauthenticated()
    throws
  {
    // given: all three slots taken, one unauthenticated being answered
    var slots = slots(connections: 3, unauthenticated: 3, streams: 1)
    let ids = try (Int32(10)...Int32(12)).map { try XCTUnwrap(admit(&slots, $0)).0 }
    slots.update(ids[0], busy: true, partialRequest: false)
    slots.authenticate(ids[1])
    slots.authenticate(ids[2])
    slots.update(ids[2], busy: false, partialRequest: false)
    // when / then
    XCTAssertEqual(try XCTUnwrap(admit(&slots, 13)).1, [11])
    XCTAssertEqual(try XCTUnwrap(admit(&slots, 14)).1, [13], "the idle newcomer before the busy")
  }
}
