import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// What can be saved can be restored (issue 14, item 3): states and recorded actions are
/// checked against the ``LoadingLimits`` they will be read with, when they are written.
final class PluginLimitsTests: ResourceTestCase {
  private var directory: TemporaryDirectory!

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory.remove()
    directory = nil
    super.tearDown()
  }

  // MARK: - State persistence

  func test_persistence_everyStateThatSaves_restores_andDeeperOnesAreRefusedWhenSaved() throws {
    // given: enum payloads cost two JSON levels each
    let url = directory.file("state.json")
    var saved: [Int] = []
    var refused: [Int] = []
    for levels in 20...40 {
      let state = DeepState(levels: levels)
      // when
      do {
        try StatePersistence<DeepState>(url: url).save(state)
      } catch {
        // then: refused with a typed error, and the previous file is kept
        guard case .unrestorable(let path, let reason) = error else {
          return XCTFail("\(levels) levels: unexpected \(error)")
        }
        XCTAssertEqual(path, url.path)
        XCTAssertTrue(reason.contains("64"), reason)
        refused.append(levels)
        continue
      }
      // then: what was saved restores
      let restored = try StatePersistence<DeepState>(url: url).restore(
        initialState: DeepState(levels: 0), recovery: .fail)
      XCTAssertEqual(restored.state, state, "\(levels) levels")
      saved.append(levels)
    }
    XCTAssertEqual(saved.last, 30)
    XCTAssertEqual(refused.first, 31)
    XCTAssertEqual(saved + refused, Array(20...40))
  }

  func test_persistence_stateLargerThanTheFileLimit_isRefusedWhenSaved() throws {
    // given
    let url = directory.file("state.json")
    let limits = LoadingLimits(maximumFileSize: 500)
    let persistence = StatePersistence<DemoState>(
      url: url, scheduler: TestScheduler(initialClock: 0), limits: limits)
    try persistence.save(DemoState(nextID: 1))
    var big = DemoState()
    big.todos = (0..<50).map { DemoTodo(id: $0, title: "todo \($0)") }
    // when / then
    XCTAssertThrowsError(try persistence.save(big)) { error in
      guard case .unrestorable? = error as? PersistenceError else {
        return XCTFail("unexpected \(error)")
      }
    }
    XCTAssertEqual(try persistence.restore(initialState: DemoState()).state.nextID, 1)
  }

  func test_persistence_throttledWriteOfAnUnrestorableState_isReported_andNotRetried() {
    // given
    let errors = StoreLockedBox<[PersistenceError]>([])
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = StatePersistence<DeepState>(
      url: directory.file("state.json"), scheduler: scheduler,
      onError: { error in errors.withLock { $0.append(error) } })
    // when
    persistence.submit(DeepState(levels: 40))
    scheduler.start()
    // then
    XCTAssertEqual(errors.current.count, 1)
    guard case .unrestorable? = errors.current.first else {
      return XCTFail("got \(errors.current)")
    }
  }

  // MARK: - Recordings

  func test_recorder_everyActionThatIsRecorded_loads_andDeeperOnesAreRefused() throws {
    // given
    var registry = ActionRegistry()
    registry.register(DeepAction.self)
    let url = directory.file("session.jsonl")
    let errors = StoreLockedBox<[RecordingError]>([])
    let recorder = try ActionRecorder(registry: registry, url: url) { error in
      errors.withLock { $0.append(error) }
    }
    // when
    for levels in 20...40 { recorder.record(DeepAction(nest: DeepState(levels: levels).nest)) }
    recorder.flush()
    // then: the file loads, with every action that was not refused
    let loaded = try ActionRecording(contentsOf: url, registry: registry)
    let depths = (loaded.actions as? [DeepAction])?.map(\.nest.levels) ?? []
    XCTAssertEqual(depths, Array(20...30))
    XCTAssertEqual(errors.current.count, 10)
    for error in errors.current {
      guard case .unreplayable(let type, let reason) = error else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(type, "DeepAction")
      XCTAssertTrue(reason.contains("64"), reason)
    }
  }

  func test_recording_tooDeepToLoad_cannotBeWritten() throws {
    // given
    var registry = ActionRegistry()
    registry.register(DeepAction.self)
    let recording = ActionRecording([DeepAction(nest: DeepState(levels: 40).nest)])
    // when / then
    XCTAssertThrowsError(try recording.jsonLines(registry: registry)) { error in
      guard case .unreplayable? = error as? RecordingError else {
        return XCTFail("unexpected \(error)")
      }
    }
    XCTAssertThrowsError(try recording.write(to: directory.file("r.jsonl"), registry: registry))
  }

  func test_recorder_stopsBeforeTheFileOutgrowsTheLoadingLimit() throws {
    // given
    let url = directory.file("session.jsonl")
    let limits = LoadingLimits(maximumFileSize: 400)
    let errors = StoreLockedBox<[RecordingError]>([])
    let recorder = try ActionRecorder(registry: DemoState.registry, url: url, limits: limits) {
      error in errors.withLock { $0.append(error) }
    }
    // when
    for index in 0..<40 { recorder.record(DemoAction.add("item \(index)")) }
    recorder.flush()
    // then: the file loads with the same limits, and the refused actions were reported
    let loaded = try ActionRecording(contentsOf: url, registry: DemoState.registry, limits: limits)
    XCTAssertGreaterThan(loaded.actions.count, 0)
    XCTAssertLessThan(loaded.actions.count, 40)
    XCTAssertEqual(errors.current.count, 40 - loaded.actions.count)
  }
}

// MARK: - Fakes

indirect enum DeepNest: Codable, Equatable, Sendable {
  case leaf
  case node(DeepNest)

  var levels: Int {
    switch self {
    case .leaf: return 0
    case .node(let inner): return inner.levels + 1
    }
  }
}

/// A state nested `levels` enum levels deep: `{"nest":{"node":{"_0":{"node":…{"leaf":{}}`.
struct DeepState: Codable, Equatable, Sendable {
  var nest: DeepNest

  init(levels: Int) {
    var nest = DeepNest.leaf
    for _ in 0..<levels { nest = .node(nest) }
    self.nest = nest
  }
}

struct DeepAction: Action, Codable, Equatable, Sendable {
  var nest: DeepNest
}
