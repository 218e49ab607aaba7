import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Persistence faults the plugin tests don't cover: every truncation of a good file, and
/// failed flushes, which must lose nothing.
final class PersistenceFaultTests: ResourceTestCase {
  private var directory: TemporaryDirectory!
  private var url: URL { directory.file("state.json") }

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = try TemporaryDirectory()
  }

  override func tearDown() {
    directory.remove()
    directory = nil
    super.tearDown()
  }

  private func persistence(
    scheduler: SchedulerType = TestScheduler(initialClock: 0),
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in }
  ) -> StatePersistence<DemoState> {
    StatePersistence(url: url, interval: .seconds(10), scheduler: scheduler, onError: onError)
  }

  private func sample(_ nextID: Int) -> DemoState {
    var state = DemoState(nextID: nextID)
    DemoState.reducer.reduce(&state, DemoAction.add("Milk ✓"))
    DemoState.reducer.reduce(&state, DemoAction.tag("home"))
    return state
  }

  func test_persistence_everyTruncationOfAGoodFile_isCorrupt_andKeptAsideByteForByte() throws {
    // given
    try persistence().save(sample(7))
    let good = Array(try Data(contentsOf: url))
    var complete = good.count
    while complete > 0, [0x20, 0x0A, 0x0D, 0x09].contains(good[complete - 1]) { complete -= 1 }
    var recovered = 0
    for length in 0..<good.count {
      // when
      let prefix = Array(good.prefix(length))
      XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(prefix)))
      let restored = try persistence().restore(initialState: DemoState(), recovery: .startFresh)
      // then: only the whole document restores; every shorter file is an error that keeps it
      switch restored.origin {
      case .file:
        XCTAssertGreaterThanOrEqual(length, complete, "a truncated file restored: \(length)")
        XCTAssertEqual(restored.state, sample(7))
      case .noFile:
        XCTFail("length \(length): the file was not read")
      case .recovered(let error):
        recovered += 1
        XCTAssertLessThan(length, complete, "a whole file was rejected: \(error)")
        XCTAssertEqual(restored.state, DemoState())
        guard let movedTo = error.movedTo else {
          XCTFail("length \(length): not moved aside: \(error)")
          continue
        }
        XCTAssertEqual(
          try Data(contentsOf: URL(fileURLWithPath: movedTo)), Data(prefix),
          "length \(length): the bad file changed when moved aside")
        XCTAssertTrue(String(describing: error).contains(url.path))
        try FileManager.default.removeItem(atPath: movedTo)
      }
    }
    XCTAssertEqual(recovered, complete)
  }

  func test_persistence_failedFlush_keepsTheStatePending_andTheNextFlushWritesIt() throws {
    // given
    let persistence = self.persistence()
    try persistence.save(sample(1))
    persistence.submit(sample(2))
    persistence.simulateFailureOfNextWrite(at: .partialWrite)
    // when
    XCTAssertThrowsError(try persistence.flush())
    let afterFailure = try self.persistence().restore(initialState: DemoState()).state
    try persistence.flush()
    // then: the failure kept the old file, and the state was written by the next flush
    XCTAssertEqual(afterFailure, sample(1))
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state, sample(2))
  }

  func test_persistence_failedFlush_doesNotReplaceANewerPendingState() throws {
    // given: a write fails while a newer state arrives
    let persistence = self.persistence()
    persistence.submit(sample(2))
    persistence.simulateFailureOfNextWrite(at: .beforeRename)
    XCTAssertThrowsError(try persistence.flush())
    // when
    persistence.submit(sample(3))
    try persistence.flush()
    // then
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state, sample(3))
  }

  func test_persistence_storeFreedWhileTheFileIsUnwritable_reportsTheFailedFlush() {
    // given: the last state is pending when the store goes away, and its write fails
    let errors = StoreLockedBox<[PersistenceError]>([])
    let persistence = self.persistence { error in errors.withLock { $0.append(error) } }
    do {
      let store = Store(reducer: DemoState.reducer, state: DemoState(), plugins: [persistence])
      store.dispatch(DemoAction.add("Bread"))
      persistence.simulateFailureOfNextWrite(at: .partialWrite)
    }
    // then: the flush on the store's end failed, and `onError` heard of it
    XCTAssertEqual(errors.current.count, 1)
    XCTAssertEqual(errors.current.first?.path, url.path)
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
  }

  // MARK: - Failed background writes (issue 14, item 2)

  func test_persistence_failedBackgroundWrite_staysPending_andFlushWritesIt() throws {
    // given: the directory is missing when the throttled write runs
    let missing = directory.file("later")
    let stateURL = missing.appendingPathComponent("state.json")
    let scheduler = TestScheduler(initialClock: 0)
    let errors = StoreLockedBox<[PersistenceError]>([])
    let persistence = StatePersistence<DemoState>(
      url: stateURL, interval: .seconds(10), scheduler: scheduler,
      onError: { error in errors.withLock { $0.append(error) } })
    persistence.submit(sample(42))
    scheduler.advanceTo(1)
    XCTAssertEqual(errors.current.count, 1, "the first write must have failed")
    // when: the directory appears and the app flushes on exit
    try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: false)
    try persistence.flush()
    // then: 42 was written
    let restored = try StatePersistence<DemoState>(url: stateURL).restore(
      initialState: DemoState())
    XCTAssertEqual(restored.state, sample(42))
  }

  func test_persistence_failedBackgroundWrite_isRetriedByTheNextThrottledWrite() throws {
    // given
    let missing = directory.file("later")
    let stateURL = missing.appendingPathComponent("state.json")
    let scheduler = TestScheduler(initialClock: 0)
    let errors = StoreLockedBox<[PersistenceError]>([])
    let persistence = StatePersistence<DemoState>(
      url: stateURL, interval: .seconds(10), scheduler: scheduler,
      onError: { error in errors.withLock { $0.append(error) } })
    persistence.submit(sample(42))
    scheduler.advanceTo(1)
    XCTAssertEqual(errors.current.count, 1, "the first write must have failed")
    // when: the directory appears, and the throttle's next write comes
    try FileManager.default.createDirectory(at: missing, withIntermediateDirectories: false)
    scheduler.start()
    // then
    let restored = try StatePersistence<DemoState>(url: stateURL).restore(
      initialState: DemoState())
    XCTAssertEqual(restored.state, sample(42))
    XCTAssertEqual(errors.current.count, 1)
  }

  func test_persistence_writeThatKeepsFailing_isRetriedABoundedNumberOfTimes_thenFlushReportsIt() {
    // given: the directory never appears
    let stateURL = directory.file("never/state.json")
    let scheduler = TestScheduler(initialClock: 0)
    let errors = StoreLockedBox<[PersistenceError]>([])
    let persistence = StatePersistence<DemoState>(
      url: stateURL, interval: .seconds(10), scheduler: scheduler,
      onError: { error in errors.withLock { $0.append(error) } })
    // when
    persistence.submit(sample(42))
    scheduler.start()  // returns: the retries stop
    // then: a few attempts, each reported, and flush still fails honestly
    XCTAssertGreaterThan(errors.current.count, 1)
    XCTAssertLessThanOrEqual(errors.current.count, 4)
    XCTAssertThrowsError(try persistence.flush()) { error in
      guard case .writeFailed? = error as? PersistenceError else {
        return XCTFail("unexpected \(error)")
      }
    }
  }

  func test_persistence_failedBackgroundWrite_doesNotReplaceANewerState() throws {
    // given: a write fails, then a newer state arrives before the retry
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = self.persistence(scheduler: scheduler)
    persistence.simulateFailureOfNextWrite(at: .beforeRename)
    persistence.submit(sample(1))
    scheduler.advanceTo(1)
    persistence.submit(sample(2))
    // when
    try persistence.flush()
    scheduler.start()
    // then
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state, sample(2))
  }
}
