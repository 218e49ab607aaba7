import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// The logging plugin under load (issue 14, item 6): bounded changes per event, a bounded
/// queue whose drops are counted and reported, and a bounded share of other threads' events
/// for the thread that happens to write.
final class LoggingLoadTests: ResourceTestCase {
  func test_loggingPlugin_stateDiffOfAShiftedArray_isOneInsertion() throws {
    // given: 10,000 elements, one inserted at the front (issue 22: the diff trims the shared
    // ends, so this is one change where it used to be 10,001)
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(format: .jsonLines))
    let store = Store(
      reducer: ListState.reducer, state: ListState(items: Array(0..<10_000)),
      middleware: [logger.middleware()])
    // when
    store.dispatch(ListAction.insertAtFront(-1))
    logger.flush()
    // then
    let state = try XCTUnwrap(lines.events.first { $0.kind == .state })
    XCTAssertEqual(state.changes, [LogEvent.Change(path: ".items[0]", old: nil, new: "-1")])
    XCTAssertEqual(state.omittedChanges, 0)
  }

  func test_loggingPlugin_stateDiffOfAWhollyChangedArray_isCapped_withTheRestCounted() throws {
    // given: 10,000 elements, each changed: 10,000 places differ
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(format: .jsonLines))
    let store = Store(
      reducer: ListState.reducer, state: ListState(items: Array(0..<10_000)),
      middleware: [logger.middleware()])
    // when
    store.dispatch(ListAction.incrementAll)
    logger.flush()
    // then
    let state = try XCTUnwrap(lines.events.first { $0.kind == .state })
    XCTAssertEqual(state.changes.count, 100)
    XCTAssertEqual(state.omittedChanges, 10_000 - 100)
    XCTAssertEqual(state.changes.first?.path, ".items[0]")
    let text = state.formatted(as: .text)
    XCTAssertTrue(text.hasSuffix("  … and 9900 more"), String(text.suffix(200)))
    XCTAssertTrue(state.formatted(as: .jsonLines).contains(#""omittedChanges":9900"#))
    let decoded = try JSONDecoder().decode(
      LogEvent.self, from: Data(state.formatted(as: .jsonLines).utf8))
    XCTAssertEqual(decoded.changes, state.changes)
    XCTAssertEqual(decoded.omittedChanges, state.omittedChanges)
    XCTAssertEqual(decoded.description, state.description)
  }

  func test_loggingPlugin_changeCap_isConfigurable() throws {
    // given
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(), maximumChangesPerEvent: 3)
    let store = Store(
      reducer: ListState.reducer, state: ListState(items: [1, 2, 3, 4, 5]),
      middleware: [logger.middleware()])
    // when
    store.dispatch(ListAction.incrementAll)
    logger.flush()
    // then
    let state = try XCTUnwrap(lines.events.first { $0.kind == .state })
    XCTAssertEqual(state.changes.map(\.path), [".items[0]", ".items[1]", ".items[2]"])
    XCTAssertEqual(state.omittedChanges, 2)
  }

  func test_loggingPlugin_fullQueue_dropsNewEvents_countsThem_andReportsTheDrop() {
    // given: the sink is stuck on the first event while another thread logs 1,000 more
    let lines = LinesBox()
    let release = DispatchSemaphore(value: 0)
    let first = StoreLockedBox(true)
    let logger = LoggingPlugin(
      sink: LogSink { event in
        if first.withLock({ value in
          defer { value = false }
          return value
        }) {
          _ = release.wait(timeout: .now() + 10)
        }
        lines.append(event, format: .text)
      }, maximumQueuedEvents: 100)
    let writer = Thread { logger.log(source: "writer", kind: .action, description: "first") }
    writer.start()
    XCTAssertTrue(
      spinUntil { !first.current }, "waited 10 s for: !first.current")
    // when
    for index in 0..<1_000 {
      logger.log(source: "producer", kind: .action, description: "event \(index)")
    }
    release.signal()
    logger.flush()
    // then: the first event, the 100 queued ones, and a notice of the 900 dropped
    let events = lines.events
    XCTAssertEqual(logger.droppedEventCount, 900)
    XCTAssertEqual(events.count, 1 + 100 + 1)
    XCTAssertEqual(events.map(\.sequence), Array(1...UInt64(events.count)))
    let notice = events.last
    XCTAssertEqual(notice?.source, "LoggingPlugin")
    XCTAssertEqual(notice?.droppedEvents, 900)
    XCTAssertTrue(
      notice?.description.contains("900 events") == true, notice?.description ?? "no notice")
  }

  func test_loggingPlugin_producingThreadsNeverWriteEvenUnderLoad() {
    // given: while the sink is busy with the first event, another thread queues 500
    let onProducers = StoreLockedBox(0)
    let total = StoreLockedBox(0)
    let isFirst = StoreLockedBox(true)
    let producing = StoreLockedBox<Set<ObjectIdentifier>>([])
    let logger = LoggingPlugin(
      sink: LogSink { _ in
        if producing.withLock({ $0.contains(ObjectIdentifier(Thread.current)) }) {
          onProducers.withLock { $0 += 1 }
        }
        total.withLock { $0 += 1 }
        guard
          isFirst.withLock({ value in
            defer { value = false }
            return value
          })
        else {
          return
        }
        let done = DispatchSemaphore(value: 0)
        let producer = Thread {
          producing.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
          for index in 0..<500 {
            logFromProducer(index)
          }
          done.signal()
        }
        producer.start()
        XCTAssertEqual(done.wait(timeout: .now() + 10), .success)
      })
    loggerForProducer.withLock { $0 = logger }
    // when
    producing.withLock { _ = $0.insert(ObjectIdentifier(Thread.current)) }
    logger.log(source: "main", kind: .action, description: "first")
    producing.withLock { _ = $0.remove(ObjectIdentifier(Thread.current)) }
    logger.flush()
    // then: the plugin's queue wrote every event; no producing thread wrote one, this one
    // included while it logged "first". (How many events the queue had written when `log`
    // returned is a race, not a property: on a loaded machine it was all 501.)
    XCTAssertEqual(onProducers.current, 0)
    XCTAssertEqual(total.current, 501)
    loggerForProducer.withLock { $0 = nil }
  }
}

private let loggerForProducer = StoreLockedBox<LoggingPlugin?>(nil)

private func logFromProducer(_ index: Int) {
  loggerForProducer.current?.log(source: "producer", kind: .action, description: "\(index)")
}

// MARK: - Fakes

struct ListState: Equatable, Sendable {
  var items: [Int]

  static var reducer: Reducer<ListState> {
    Reducer { state, action in
      switch action as? ListAction {
      case .insertAtFront(let value)?: state.items.insert(value, at: 0)
      case .incrementAll?: state.items = state.items.map { $0 + 1 }
      case nil: break
      }
    }
  }
}

enum ListAction: Action, Equatable, Sendable {
  case insertAtFront(Int)
  case incrementAll
}
