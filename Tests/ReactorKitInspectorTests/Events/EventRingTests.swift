import ReactorKit
import XCTest

@testable import ReactorKitInspector

final class EventRingTests: XCTestCase {
  private static func append(_ count: Int, to ring: EventRing) {
    for index in 0..<count {
      ring.append(kind: .note, source: InspectorNoteSource.shared.info, note: "n\(index)")
    }
  }

  func test_events_afterASequence_areInOrderWithoutGaps() {
    let ring = EventRing(capacity: 10)
    Self.append(5, to: ring)
    let batch = ring.events(after: 2)
    XCTAssertEqual(batch.missed, 0)
    XCTAssertEqual(batch.events.map(\.sequence), [3, 4, 5])
    XCTAssertEqual(ring.latestSequence, 5)
  }

  func test_events_afterOverflow_reportTheMissedCount() {
    // given
    let ring = EventRing(capacity: 4)
    // when
    Self.append(10, to: ring)
    // then
    let batch = ring.events(after: 0)
    XCTAssertEqual(batch.missed, 6)
    XCTAssertEqual(batch.events.map(\.sequence), [7, 8, 9, 10])
    XCTAssertEqual(batch.events.map(\.note), ["n6", "n7", "n8", "n9"])
    XCTAssertNil(ring.event(6))
    XCTAssertEqual(ring.event(7)?.note, "n6")
  }

  func test_removeAll_thenAppend_numbersContinueAndSlotsRefill() {
    // given
    let ring = EventRing(capacity: 3)
    Self.append(5, to: ring)
    // when
    ring.removeAll()
    Self.append(4, to: ring)
    // then
    let batch = ring.events(after: 0)
    XCTAssertEqual(batch.events.map(\.sequence), [7, 8, 9])
    XCTAssertEqual(batch.missed, 6)
    XCTAssertNil(ring.event(5))
    XCTAssertEqual(ring.event(9)?.note, "n3")
  }

  func test_events_afterRemoveAll_reportTheRemovedEventsAsMissed() {
    // Found in review: a stream behind the ring when it was emptied (the inspector shutting
    // down, an import) got no events and no gap, so its cursor never moved while the newest
    // sequence number stayed ahead of it, and it asked again at once, forever.
    // given
    let ring = EventRing(capacity: 8)
    Self.append(5, to: ring)
    // when
    ring.removeAll()
    // then
    let batch = ring.events(after: 2)
    XCTAssertEqual(batch.missed, 3)
    XCTAssertTrue(batch.events.isEmpty)
    let stream = EventStream(
      ring: ring, renderer: EventRenderer(redaction: .default), keepAliveInterval: .seconds(1))
    let (text, cursor, count) = stream.chunk(after: 2)
    XCTAssertEqual(cursor, 5, "the cursor moves past the removed events")
    XCTAssertEqual(count, 1)
    XCTAssertTrue(text.contains(#"{"kind":"gap","missed":3,"seq":5}"#), text)
    XCTAssertEqual(stream.chunk(after: cursor).count, 0, "nothing more until new events")
  }

  func test_events_limit_returnsTheOldestFirst() {
    let ring = EventRing(capacity: 100)
    Self.append(50, to: ring)
    XCTAssertEqual(ring.events(after: 10, limit: 3).events.map(\.sequence), [11, 12, 13])
    XCTAssertTrue(ring.events(after: 50).events.isEmpty)
    XCTAssertTrue(ring.events(after: 99).events.isEmpty)
  }

  func test_cacheRendering_isDroppedWhenTheSlotIsReused() {
    let ring = EventRing(capacity: 2)
    Self.append(1, to: ring)
    ring.cacheRendering("one", for: 1)
    XCTAssertEqual(ring.events(after: 0).rendered, ["one"])
    Self.append(2, to: ring)  // #3 reuses #1's slot
    ring.cacheRendering("stale", for: 1)
    XCTAssertEqual(ring.events(after: 0).rendered, [nil, nil])
  }

  func test_streamChunk_writesAGapMarkerThenEventsInOrder() {
    // given
    let ring = EventRing(capacity: 3)
    Self.append(5, to: ring)
    let stream = EventStream(
      ring: ring, renderer: EventRenderer(redaction: .default), keepAliveInterval: .seconds(1))
    // when
    let (text, cursor, count) = stream.chunk(after: 0)
    // then
    XCTAssertEqual(cursor, 5)
    XCTAssertEqual(count, 4)
    let ids = text.split(separator: "\n").filter { $0.hasPrefix("id: ") }
    XCTAssertEqual(ids, ["id: 2", "id: 3", "id: 4", "id: 5"])
    XCTAssertTrue(text.contains(#"{"kind":"gap","missed":2,"seq":2}"#), text)
  }

  func test_append_concurrentWriters_numberEveryEventOnce() {
    let ring = EventRing(capacity: 100_000)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in Self.append(1_000, to: ring) }
    let sequences = ring.events(after: 0).events.map(\.sequence)
    XCTAssertEqual(sequences, Array(1...4_000))
  }
}
