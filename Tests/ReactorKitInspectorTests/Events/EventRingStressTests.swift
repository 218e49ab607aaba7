import Foundation
import ReactorKit
import XCTest

@testable import ReactorKitInspector

/// Writers and readers of one small ring at once, so that writers overtake readers all the
/// time: every batch a reader gets must still be a gap count followed by consecutive events,
/// each with its own payload and rendering.
final class EventRingStressTests: XCTestCase {
  /// One writer's `index`-th event; an object, so that a slot read while it is overwritten
  /// would hand out a released reference.
  private final class Payload: Sendable {
    let writer: Int
    let index: Int
    init(writer: Int, index: Int) {
      self.writer = writer
      self.index = index
    }
  }

  private final class Failures: @unchecked Sendable {
    // Safety: guarded by `lock`.
    private let lock = NSLock()
    private var messages: [String] = []
    func record(_ message: String) {
      lock.lock()
      if messages.count < 20 { messages.append(message) }
      lock.unlock()
    }
    var all: [String] {
      lock.lock()
      defer { lock.unlock() }
      return messages
    }
  }

  func test_writersAndReaders_readersSeeGapCountsThenConsecutiveEventsWithTheirOwnData() {
    // given
    let capacity = 4
    let ring = EventRing(capacity: capacity)
    let writers = 2
    let perWriter = 100_000
    let readers = 2
    // One source per writer, so that appends replace events of their own source and of the
    // other's (the ring reuses the source reference in the first case).
    let sources = (0..<writers).map { SourceInfo(name: "writer \($0)", kindName: "store") }
    let failures = Failures()
    let writing = DispatchGroup()
    let reading = DispatchGroup()
    // when
    for writer in 0..<writers {
      writing.enter()
      Thread.detachNewThread {
        for index in 0..<perWriter {
          ring.append(
            kind: .action, source: sources[writer], value: Payload(writer: writer, index: index),
            after: index)
        }
        writing.leave()
      }
    }
    for reader in 0..<readers {
      reading.enter()
      Thread.detachNewThread {
        defer { reading.leave() }
        var cursor: UInt64 = 0
        var lastIndex = [Int](repeating: -1, count: writers)
        var delivered: UInt64 = 0
        while true {
          let finished = writing.wait(timeout: .now()) == .success
          let batch = ring.events(after: cursor, limit: 8 + reader * 5)
          if let first = batch.events.first, first.sequence != cursor + batch.missed + 1 {
            failures.record(
              "after \(cursor) missing \(batch.missed): first event #\(first.sequence)")
            return
          }
          var expected = cursor + batch.missed
          for (event, rendering) in zip(batch.events, batch.rendered) {
            expected += 1
            guard event.sequence == expected else {
              failures.record("expected #\(expected), got #\(event.sequence)")
              return
            }
            guard let payload = event.value as? Payload, event.after as? Int == payload.index,
              event.source === sources[payload.writer],
              payload.index > lastIndex[payload.writer]
            else {
              failures.record("#\(event.sequence) carries another event's data")
              return
            }
            lastIndex[payload.writer] = payload.index
            if let rendering, rendering != "#\(event.sequence)" {
              failures.record("#\(event.sequence) has the rendering \(rendering)")
              return
            }
            ring.cacheRendering("#\(event.sequence)", for: event.sequence)
          }
          delivered += UInt64(batch.events.count)
          cursor = batch.events.last?.sequence ?? cursor + batch.missed
          if finished && cursor == ring.latestSequence { break }
        }
        if delivered == 0 { failures.record("reader \(reader) read nothing") }
      }
    }
    // then
    XCTAssertEqual(writing.wait(timeout: .now() + 60), .success)
    XCTAssertEqual(reading.wait(timeout: .now() + 60), .success)
    XCTAssertEqual(failures.all, [])
    let total = UInt64(writers * perWriter)
    XCTAssertEqual(ring.latestSequence, total)
    let last = ring.events(after: 0)
    XCTAssertEqual(last.missed, total - UInt64(capacity))
    XCTAssertEqual(last.events.map(\.sequence), Array((total - UInt64(capacity) + 1)...total))
  }
}
