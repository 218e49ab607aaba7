import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// What the logger does on the dispatching thread: with a sink that wants nothing or a filter
/// that rejects the action, nothing is rendered; otherwise rendering happens on its queue.
final class LoggingPluginCostTests: ResourceTestCase {
  /// A redaction whose value hook counts the values prepared for rendering (every action,
  /// mutation and state goes through it first).
  private func countingRedaction(_ count: LockedBox<Int>) -> LogRedaction {
    LogRedaction(
      fieldNames: LogRedaction.default.fieldNames,
      redactValue: { value in
        count.withLock { $0 += 1 }
        return value
      })
  }

  func test_discardingSink_rendersAndQueuesNothing() {
    // given
    let rendered = LockedBox(0)
    let logger = LoggingPlugin(sink: .discarding, redaction: countingRedaction(rendered))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [logger.forStore()])
    let reactor = DemoCounterReactor()
    reactor.install(logger, source: "counter")
    // when
    store.dispatch(DemoAction.add("Milk"))
    reactor.action.onNext(.increase)
    logger.log(source: "app", kind: .action, description: "note")
    logger.flush()
    // then
    XCTAssertEqual(rendered.withLock { $0 }, 0)
  }

  func test_sinkTurnedOff_thenOn_logsOnlyWhileOn() {
    // given: a sink with a switch
    let isOn = LockedBox(false)
    let lines = LinesBox()
    let logger = LoggingPlugin(
      sink: LogSink(isEnabled: { isOn.withLock { $0 } }, { lines.append($0, format: .text) }))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [logger.forStore()])
    // when
    store.dispatch(DemoAction.add("Milk"))
    isOn.withLock { $0 = true }
    store.dispatch(DemoAction.add("Eggs"))
    logger.flush()
    // then: numbered from 1, the first action never seen
    XCTAssertEqual(lines.events.map(\.sequence), [1, 2])
    XCTAssertTrue(lines.events[0].description.contains("Eggs"), lines.events[0].description)
  }

  func test_filterRejectingTheAction_rendersNeitherItNorItsStateChange() {
    // given: a filter that keeps only `add`
    let rendered = LockedBox(0)
    let lines = LinesBox()
    let filter = LogFilter(actions: { action in
      if case DemoAction.add = action { return true }
      return false
    })
    let logger = LoggingPlugin(
      sink: lines.sink(format: .text), filter: filter, redaction: countingRedaction(rendered))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [logger.forStore()])
    // when
    store.dispatch(DemoAction.tag("home"))
    store.dispatch(DemoAction.add("Milk"))
    store.dispatch(DemoAction.tag("work"))
    logger.flush()
    // then: the action and the two states of `add` only
    XCTAssertEqual(lines.events.map(\.kind), [.action, .state])
    XCTAssertEqual(rendered.withLock { $0 }, 3)
  }

  func test_eventsAreRenderedOffTheDispatchingThread_inOrder() {
    // given
    let renderedOn = LockedBox<[Bool]>([])
    let lines = LinesBox()
    let logger = LoggingPlugin(
      sink: lines.sink(format: .text),
      redaction: LogRedaction(
        fieldNames: LogRedaction.default.fieldNames,
        redactValue: { value in
          renderedOn.withLock { $0.append(Thread.isMainThread) }
          return value
        }))
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [logger.forStore()])
    // when: dispatched on the main thread
    for index in 0..<20 { store.dispatch(DemoAction.add("item \(index)")) }
    let renderedBeforeFlush = renderedOn.withLock { $0 }
    logger.flush()
    // then: nothing rendered on the dispatching thread before the flush, all events in order
    XCTAssertTrue(Thread.isMainThread)
    XCTAssertFalse(renderedBeforeFlush.contains(true))
    XCTAssertEqual(lines.events.map(\.sequence), Array(1...40))
    XCTAssertEqual(
      lines.events.filter { $0.kind == .action }.map(\.description).last,
      "DemoAction.add(\"item 19\")")
  }

  func test_stateDiffOfAnIdentifiedList_comparesOnlyTheChangedLeaf() {
    // given: 100,000 rows that count their comparisons
    let rows = IdentifiedList(uniqueElements: (0..<100_000).map { CountedRow(id: $0) })
    let lines = LinesBox()
    let logger = LoggingPlugin(sink: lines.sink(format: .text))
    let store = Store(
      reducer: Reducer<CountedRows> { state, action in
        if let toggle = action as? ToggleRow { state.rows[id: toggle.id]?.done.toggle() }
      }, state: CountedRows(rows: rows), plugins: [logger.forStore()])
    CountedRow.comparisons.withLock { $0 = 0 }
    // when
    store.dispatch(ToggleRow(id: 77_777))
    logger.flush()
    // then: one change, found by comparing one leaf of rows, not the list
    XCTAssertEqual(lines.events.last?.changes.map(\.path), [".rows[77777].done"])
    XCTAssertLessThan(CountedRow.comparisons.withLock { $0 }, 200)
  }
}

/// A row whose `==` counts its calls.
private struct CountedRow: Identifiable, Equatable {
  static let comparisons = LockedBox(0)
  var id: Int
  var done = false

  static func == (lhs: CountedRow, rhs: CountedRow) -> Bool {
    comparisons.withLock { $0 += 1 }
    return lhs.id == rhs.id && lhs.done == rhs.done
  }
}

private struct CountedRows: Equatable {
  var rows: IdentifiedList<CountedRow>
}

private struct ToggleRow: Action {
  var id: Int
}
