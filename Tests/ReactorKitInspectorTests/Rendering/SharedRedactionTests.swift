import Foundation
import ReactorKit
import XCTest

@testable import ReactorKitInspector

/// One redaction setting, `LogRedaction.shared`, for the logger, a recording's copy to share
/// and the inspector; and actions redacted by the same rules as states: an action's unlabeled
/// payload counts as the state field named like its case (`iban("…")` as `iban`).
final class SharedRedactionTests: XCTestCase {
  private enum ProbeAction: Action, Codable, Equatable {
    case iban(String)
    case session(String)
    case setPin(Int)
    case rename(name: String)
  }

  private struct ProbeState: Equatable {
    var iban = "DE00 0000"
    var session = "s-old"
    var pin = 1111
    var name = "ann"
  }

  private static let reducer = Reducer<ProbeState>.on(ProbeAction.self) { state, action in
    switch action {
    case .iban(let value): state.iban = value
    case .session(let value): state.session = value
    case .setPin(let value): state.pin = value
    case .rename(let value): state.name = value
    }
  }

  private let actions: [ProbeAction] = [
    .iban("DE12 3456"), .session("s-new"), .setPin(9876), .rename(name: "bob"),
  ]
  /// Values the widened setting hides (the IBAN, by its added name; the PIN, by default)...
  private let hidden = ["DE12 3456", "DE00 0000", "9876", "1111"]
  /// ...and shows (the session, by its removed name; the name, never secret).
  private let shown = ["s-new", "s-old", "bob", "ann"]

  private func assertRedacted(
    _ text: String, _ what: String, actionsOnly: Bool = false, line: UInt = #line
  ) {
    // A recording holds actions only: the states' values are in no line of it.
    let hidden = actionsOnly ? ["DE12 3456", "9876"] : self.hidden
    let shown = actionsOnly ? ["s-new", "bob"] : self.shown
    for value in hidden {
      XCTAssertFalse(text.contains(value), "\(what) shows \(value):\n\(text)", line: line)
    }
    for value in shown {
      XCTAssertTrue(text.contains(value), "\(what) hides \(value):\n\(text)", line: line)
    }
  }

  func test_sharedSetting_widenedOnce_appliesToTheLogTheRecordingCopyAndTheInspector() throws {
    // given: the app widens its one setting (and adds a name) at start
    let saved = LogRedaction.shared
    defer { LogRedaction.shared = saved }
    LogRedaction.shared.fieldNames.remove("session")
    LogRedaction.shared.fieldNames.insert("iban")
    // when: the log of a store that receives the actions
    let events = LockedEvents()
    let logger = LoggingPlugin(sink: LogSink { events.append($0) })
    let store = Store(
      reducer: Self.reducer, state: ProbeState(), plugins: [logger.forStore()])
    for action in actions { store.dispatch(action) }
    logger.flush()
    // then
    assertRedacted(events.text, "the log")
    // when: a copy of the recording to share
    var registry = ActionRegistry()
    registry.register(ProbeAction.self)
    let copy = try ActionRecording(actions).jsonLines(registry: registry, redaction: .shared)
    // then
    assertRedacted(
      String(decoding: copy, as: UTF8.self), "the recording's copy", actionsOnly: true)
    // when: what the inspector shows of the actions and the states
    let inspector = try Inspector(registry: registry)
    let renderer = EventRenderer(redaction: inspector.core.redaction)
    let source = SourceInfo(name: "store", kindName: "store")
    let shownByInspector =
      actions.map { renderer.text(of: $0) }
      + [renderer.stateJSON(ProbeState(), source: source)]
      + [renderer.stateJSON(store.currentState, source: source)]
    // then
    assertRedacted(shownByInspector.joined(separator: "\n"), "the inspector")
  }
}

/// The log's events, as text, collected from the logger's writing thread.
private final class LockedEvents: @unchecked Sendable {
  // Safety: `lines` is guarded by `lock`.
  private let lock = NSLock()
  private var lines: [String] = []

  func append(_ event: LogEvent) {
    lock.withLock { lines.append(event.formatted(as: .text)) }
  }

  var text: String { lock.withLock { lines.joined(separator: "\n") } }
}
