import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class StatePersistenceTests: ResourceTestCase {
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

  private func sample() -> DemoState {
    var state = DemoState()
    DemoState.reducer.reduce(&state, DemoAction.logIn(name: "ann", password: "pw"))
    DemoState.reducer.reduce(&state, DemoAction.add("Milk ✓"))
    DemoState.reducer.reduce(&state, DemoAction.tag("home"))
    DemoState.reducer.reduce(&state, DemoAction.count("visits"))
    return state
  }

  private func persistence(
    schemaVersion: Int = 1, scheduler: SchedulerType? = nil, limits: LoadingLimits = .default,
    onError: @escaping @Sendable (PersistenceError) -> Void = { _ in }
  ) -> StatePersistence<DemoState> {
    StatePersistence(
      url: url, schemaVersion: schemaVersion, interval: .seconds(10),
      scheduler: scheduler ?? TestScheduler(initialClock: 0), limits: limits, onError: onError)
  }

  private func restoreError(
    _ persistence: StatePersistence<DemoState>, file: StaticString = #filePath, line: UInt = #line
  ) -> PersistenceError? {
    do {
      let restored = try persistence.restore(initialState: DemoState())
      XCTFail("restore succeeded with \(restored.origin)", file: file, line: line)
      return nil
    } catch {
      return error
    }
  }

  private func write(_ text: String) {
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(text.utf8)))
  }

  // MARK: - Round trip

  func test_persistence_savedStateIsRestored() throws {
    // given
    let state = sample()
    try persistence().save(state)
    // when
    let restored = try persistence().restore(initialState: DemoState())
    // then
    XCTAssertEqual(restored.state, state)
    guard case .file = restored.origin else { return XCTFail("origin \(restored.origin)") }
    XCTAssertEqual(permissions(of: url), 0o600)
    XCTAssertEqual(directory.contents(), ["state.json"])
  }

  func test_persistence_missingFile_givesTheInitialState() throws {
    // when
    let restored = try persistence().restore(initialState: sample())
    // then
    XCTAssertEqual(restored.state, sample())
    guard case .noFile = restored.origin else { return XCTFail("origin \(restored.origin)") }
    XCTAssertEqual(directory.contents(), [])
  }

  func test_persistence_fileFormat_hasVersionSchemaAndState() throws {
    // given
    try persistence(schemaVersion: 7).save(DemoState())
    // when
    let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
    // then
    XCTAssertEqual(object?["format"] as? String, "reactorkit.state")
    XCTAssertEqual(object?["version"] as? Int, 1)
    XCTAssertEqual(object?["schema"] as? Int, 7)
    XCTAssertNotNil(object?["state"] as? [String: Any])
  }

  // MARK: - Throttling

  func test_persistence_writesAtMostOncePerInterval_andTheLastStateEventually() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = self.persistence(scheduler: scheduler)
    var seen: [Int: Int] = [:]
    func state(_ id: Int) -> DemoState { DemoState(nextID: id) }
    func record(_ time: Int) {
      scheduler.scheduleAt(time) {
        seen[time] = (try? self.persistence().restore(initialState: DemoState()))?.state.nextID
      }
    }
    scheduler.scheduleAt(100) { persistence.submit(state(1)) }
    scheduler.scheduleAt(102) { persistence.submit(state(2)) }
    scheduler.scheduleAt(105) { persistence.submit(state(3)) }
    scheduler.scheduleAt(130) { persistence.submit(state(4)) }
    for time in [100, 105, 110, 112, 125, 130, 132] { record(time) }
    // when
    scheduler.start()
    // then
    XCTAssertEqual(seen, [100: 1, 105: 1, 110: 1, 112: 3, 125: 3, 130: 3, 132: 4])
  }

  func test_persistence_flush_writesThePendingStateAtOnce() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = self.persistence(scheduler: scheduler)
    persistence.submit(DemoState(nextID: 5))
    // when
    try persistence.flush()
    // then
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state.nextID, 5)
    scheduler.start()
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state.nextID, 5)
  }

  func test_persistence_installed_savesLaterStates_andFlushesWhenTheStoreIsFreed() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = self.persistence(scheduler: scheduler)
    var store: Store<DemoState>? = Store(
      reducer: DemoState.reducer, state: DemoState(), plugins: [persistence])
    // when
    scheduler.start()
    let afterAttach = FileManager.default.fileExists(atPath: url.path)
    store?.dispatch(DemoAction.add("a"))
    store?.dispatch(DemoAction.add("b"))
    store = nil
    // then
    XCTAssertFalse(afterAttach, "the current state must not be written")
    let restored = try self.persistence().restore(initialState: DemoState())
    XCTAssertEqual(restored.state.todos.map(\.title), ["a", "b"])
  }

  @available(*, deprecated)
  func test_persistence_deprecatedAttach_savesLaterStates_andFlushesWhenTheStoreIsFreed() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = self.persistence(scheduler: scheduler)
    var store: Store<DemoState>? = Store(reducer: DemoState.reducer, state: DemoState())
    let subscription = persistence.attach(to: store!)
    // when
    scheduler.start()
    store?.dispatch(DemoAction.add("a"))
    store = nil
    // then
    let restored = try self.persistence().restore(initialState: DemoState())
    XCTAssertEqual(restored.state.todos.map(\.title), ["a"])
    subscription.dispose()
  }

  func test_persistence_flushPlugins_writesThePendingStateNow() throws {
    // given: a throttle that never fires on its own
    let scheduler = TestScheduler(initialClock: 0)
    let persistence = self.persistence(scheduler: scheduler)
    let restored = try persistence.restore(initialState: DemoState())
    let store = Store(reducer: DemoState.reducer, state: restored.state, plugins: [persistence])
    store.dispatch(DemoAction.add("a"))
    // when
    try store.flushPlugins()
    // then
    XCTAssertEqual(
      try self.persistence().restore(initialState: DemoState()).state.todos.map(\.title), ["a"])
  }

  func test_persistence_scopedToAPart_savesThePart() throws {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let partURL = directory.file("todos.json")
    let persistence = StatePersistence<[DemoTodo]>(url: partURL, scheduler: scheduler)
    _ = try persistence.restore(initialState: [])
    let store = Store(
      reducer: DemoState.reducer, state: DemoState(),
      plugins: [persistence.scoped(to: \.todos)])
    // when
    store.dispatch(DemoAction.add("a"))
    store.dispatch(DemoAction.logIn(name: "ann", password: "pw"))
    try store.flushPlugins()
    // then
    let reloaded = StatePersistence<[DemoTodo]>(url: partURL)
    XCTAssertEqual(try reloaded.restore(initialState: []).state.map(\.title), ["a"])
  }

  func test_persistence_onRealScheduler_writesEventually() throws {
    // given
    let written = expectation(description: "written")
    let persistence = StatePersistence<DemoState>(url: url, interval: .milliseconds(10))
    // when
    persistence.submit(DemoState(nextID: 9))
    let path = url.path
    DispatchQueue.global().async {
      // Poll with a deadline, so a write that never happens ends the loop too.
      let deadline = Date().addingTimeInterval(10)
      while !FileManager.default.fileExists(atPath: path), Date() < deadline { usleep(1_000) }
      if FileManager.default.fileExists(atPath: path) { written.fulfill() }
    }
    wait(for: [written], timeout: 5)
    try persistence.flush()
    // then
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state.nextID, 9)
  }

  // MARK: - Failed writes

  func test_persistence_failedWriteMidFile_keepsTheOldFile() throws {
    // given
    let persistence = self.persistence()
    try persistence.save(sample())
    persistence.simulateFailureOfNextWrite(at: .partialWrite)
    // when
    XCTAssertThrowsError(try persistence.save(DemoState(nextID: 99))) { error in
      // then
      guard case .writeFailed(let path, let reason)? = error as? PersistenceError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertEqual(path, self.url.path)
      XCTAssertTrue(reason.contains("simulated"), reason)
    }
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state, sample())
    XCTAssertEqual(directory.contents(), ["state.json"])
  }

  func test_persistence_failedRename_keepsTheOldFile_andTheNextWriteSucceeds() throws {
    // given
    let persistence = self.persistence()
    try persistence.save(sample())
    persistence.simulateFailureOfNextWrite(at: .beforeRename)
    // when
    XCTAssertThrowsError(try persistence.save(DemoState(nextID: 99)))
    let afterFailure = try self.persistence().restore(initialState: DemoState()).state
    try persistence.save(DemoState(nextID: 100))
    // then
    XCTAssertEqual(afterFailure, sample())
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state.nextID, 100)
    XCTAssertEqual(directory.contents(), ["state.json"])
  }

  func test_persistence_backgroundWriteFailure_isReportedToOnError() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let errors = StoreLockedBox<[PersistenceError]>([])
    let persistence = self.persistence(scheduler: scheduler) { error in
      errors.withLock { $0.append(error) }
    }
    persistence.simulateFailureOfNextWrite(at: .partialWrite)
    // when
    persistence.submit(DemoState(nextID: 3))
    scheduler.start()
    // then: the failure was reported, and the throttle's retry wrote the state
    XCTAssertEqual(errors.current.count, 1)
    XCTAssertEqual(errors.current.first?.path, url.path)
    XCTAssertEqual(try self.persistence().restore(initialState: DemoState()).state.nextID, 3)
  }

  func test_persistence_leftoverTemporaryFileFromACrash_isIgnoredAndRemoved() throws {
    // given
    try persistence().save(sample())
    let leftover = directory.file(".state.json.tmp-2147483646-456")
    XCTAssertTrue(
      FileManager.default.createFile(atPath: leftover.path, contents: Data("{\"fo".utf8)))
    let unrelated = directory.file("other.json")
    XCTAssertTrue(FileManager.default.createFile(atPath: unrelated.path, contents: Data()))
    // when
    let restored = try persistence().restore(initialState: DemoState())
    // then
    XCTAssertEqual(restored.state, sample())
    XCTAssertEqual(directory.contents(), ["other.json", "state.json"])
  }

  func test_persistence_missingDirectory_isAWriteError() {
    // given
    let persistence = StatePersistence<DemoState>(
      url: directory.file("missing/state.json"), scheduler: TestScheduler(initialClock: 0))
    // when / then
    XCTAssertThrowsError(try persistence.save(DemoState())) { error in
      guard case .writeFailed(let path, _)? = error as? PersistenceError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(path.hasSuffix("missing/state.json"))
      XCTAssertTrue(String(describing: error).contains("missing/state.json"))
    }
  }

  func test_persistence_unwritableDirectory_isAWriteError_andKeepsTheOldFile() throws {
    guard geteuid() != 0 else {
      // Permissions don't apply to root: /proc refuses new files whoever asks.
      return try test_persistence_directoryThatRefusesFiles_isAWriteError_evenForRoot()
    }
    // given
    try persistence().save(sample())
    unsafe chmod(directory.url.path, 0o500)
    // when / then
    XCTAssertThrowsError(try persistence().save(DemoState())) { error in
      guard case .writeFailed? = error as? PersistenceError else {
        return XCTFail("unexpected \(error)")
      }
    }
    unsafe chmod(directory.url.path, 0o700)
    XCTAssertEqual(try persistence().restore(initialState: DemoState()).state, sample())
  }

  func test_persistence_directoryThatRefusesFiles_isAWriteError_evenForRoot() throws {
    #if os(Linux)
      // given: /proc accepts no new files, whoever asks
      let persistence = StatePersistence<DemoState>(
        url: URL(fileURLWithPath: "/proc/reactorkit-state.json"),
        scheduler: TestScheduler(initialClock: 0))
      // when / then
      XCTAssertThrowsError(try persistence.save(DemoState())) { error in
        guard case .writeFailed(let path, let reason)? = error as? PersistenceError else {
          return XCTFail("unexpected \(error)")
        }
        XCTAssertEqual(path, "/proc/reactorkit-state.json")
        XCTAssertFalse(reason.isEmpty)
      }
    #else
      throw XCTSkip("needs /proc")
    #endif
  }

  // MARK: - Bad files

  private func assertMovedAside(
    _ error: PersistenceError?, original: String, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    guard let movedTo = error?.movedTo else {
      return XCTFail(
        "the file was not moved aside: \(String(describing: error))", file: file, line: line)
    }
    XCTAssertTrue(
      movedTo.hasPrefix(url.path + ".corrupt-"), "moved to \(movedTo)", file: file, line: line)
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path), file: file, line: line)
    XCTAssertEqual(
      try? String(contentsOfFile: movedTo, encoding: .utf8), original, file: file, line: line)
    let description = String(describing: error!)
    XCTAssertTrue(description.contains(url.path), description, file: file, line: line)
    XCTAssertTrue(description.contains(movedTo), description, file: file, line: line)
  }

  func test_persistence_garbage_isCorrupt_andMovedAside() {
    // given
    write("not json at all")
    // when
    let error = restoreError(persistence())
    // then
    guard case .corrupt(_, let reason, _)? = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertTrue(reason.contains("not valid JSON"), reason)
    assertMovedAside(error, original: "not json at all")
  }

  func test_persistence_truncatedFile_isCorrupt() throws {
    // given
    try persistence().save(sample())
    let full = try String(contentsOf: url, encoding: .utf8)
    let truncated = String(full.prefix(full.count / 2))
    write(truncated)
    // when
    let error = restoreError(persistence())
    // then
    guard case .corrupt? = error else { return XCTFail("got \(String(describing: error))") }
    assertMovedAside(error, original: truncated)
  }

  func test_persistence_emptyFile_isCorrupt() {
    // given
    write(" \n")
    // when
    let error = restoreError(persistence())
    // then
    XCTAssertEqual(
      error, .corrupt(path: url.path, reason: "the file is empty", movedTo: error?.movedTo))
    assertMovedAside(error, original: " \n")
  }

  func test_persistence_otherJSON_isNotAStateFile() {
    // given
    write(#"{"todos":[]}"#)
    // when
    let error = restoreError(persistence())
    // then
    guard case .corrupt(_, let reason, _)? = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertTrue(reason.contains("not a ReactorKit state file"), reason)
  }

  func test_persistence_newerFormatVersion_isUnsupported() {
    // given
    let text = #"{"format":"reactorkit.state","version":2,"schema":1,"state":{}}"#
    write(text)
    // when
    let error = restoreError(persistence())
    // then
    XCTAssertEqual(
      error,
      .unsupportedFormatVersion(path: url.path, found: 2, supported: 1, movedTo: error?.movedTo))
    assertMovedAside(error, original: text)
    XCTAssertTrue(String(describing: error!).contains("format version 2"))
  }

  func test_persistence_otherSchemaVersion_isIncompatible() throws {
    // given
    try persistence(schemaVersion: 1).save(sample())
    // when
    let error = restoreError(persistence(schemaVersion: 2))
    // then
    XCTAssertEqual(
      error, .incompatibleSchema(path: url.path, found: 1, expected: 2, movedTo: error?.movedTo))
    XCTAssertNotNil(error?.movedTo)
  }

  func test_persistence_stateOfTheWrongShape_isUndecodable() {
    // given
    write(#"{"format":"reactorkit.state","version":1,"schema":1,"state":{"todos":"none"}}"#)
    // when
    let error = restoreError(persistence())
    // then
    guard case .undecodableState(_, let reason, _)? = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertTrue(reason.contains(".todos"), reason)
  }

  func test_persistence_oversizedFile_isRejectedBeforeReading() {
    // given
    let text = String(repeating: " ", count: 2_000) + "{}"
    write(text)
    // when
    let error = restoreError(persistence(limits: LoadingLimits(maximumFileSize: 1_000)))
    // then
    XCTAssertEqual(
      error, .tooLarge(path: url.path, size: 2_002, limit: 1_000, movedTo: error?.movedTo))
    assertMovedAside(error, original: text)
  }

  func test_persistence_tooDeeplyNestedFile_isRejectedBeforeDecoding() {
    // given
    let depth = 100_000
    let text =
      #"{"format":"reactorkit.state","version":1,"schema":1,"state":"#
      + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
    write(text)
    // when
    let error = restoreError(persistence())
    // then
    XCTAssertEqual(error, .nestingTooDeep(path: url.path, limit: 64, movedTo: error?.movedTo))
    XCTAssertNotNil(error?.movedTo)
  }

  func test_persistence_nestingWithinTheLimit_andBracketsInStrings_areAccepted() throws {
    // given
    var state = DemoState()
    state.todos = [DemoTodo(id: 1, title: String(repeating: "[{", count: 500))]
    try persistence().save(state)
    // when
    let restored = try persistence(limits: LoadingLimits(maximumNestingDepth: 4)).restore(
      initialState: DemoState())
    // then
    XCTAssertEqual(restored.state, state)
  }

  func test_persistence_startFresh_returnsTheInitialState_andReportsTheProblem() throws {
    // given
    write("{\"format\":")
    // when
    let restored = try persistence().restore(initialState: sample(), recovery: .startFresh)
    // then
    XCTAssertEqual(restored.state, sample())
    guard case .recovered(let error) = restored.origin else {
      return XCTFail("origin \(restored.origin)")
    }
    assertMovedAside(error, original: "{\"format\":")
  }

  func test_persistence_badFileMovedAside_isNeverOverwritten() throws {
    // given
    write("garbage")
    let restored = try persistence().restore(initialState: DemoState(), recovery: .startFresh)
    guard case .recovered(let error) = restored.origin, let movedTo = error.movedTo else {
      return XCTFail("origin \(restored.origin)")
    }
    // when
    write("more garbage")
    let second = try persistence().restore(initialState: DemoState(), recovery: .startFresh)
    try persistence().save(sample())
    // then
    guard case .recovered(let secondError) = second.origin else {
      return XCTFail("origin \(second.origin)")
    }
    XCTAssertNotEqual(secondError.movedTo, movedTo)
    XCTAssertEqual(try String(contentsOfFile: movedTo, encoding: .utf8), "garbage")
    XCTAssertEqual(
      try String(contentsOfFile: secondError.movedTo ?? "", encoding: .utf8), "more garbage")
    XCTAssertEqual(directory.contents().count, 3)
  }

  func test_persistence_directoryAtThePath_isUnreadable_andLeftInPlace() throws {
    // given
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    // when
    let error = restoreError(persistence())
    // then
    guard case .unreadable(let path, let reason)? = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertEqual(path, url.path)
    XCTAssertTrue(reason.contains("not a regular file"), reason)
    XCTAssertTrue(FileManager.default.fileExists(atPath: url.path))
  }

  func test_persistence_fifoAtThePath_isUnreadable_withoutBlocking() {
    // given
    unsafe XCTAssertEqual(mkfifo(url.path, 0o600), 0)
    // when
    let error = restoreError(persistence())
    // then
    guard case .unreadable(_, let reason)? = error else {
      return XCTFail("got \(String(describing: error))")
    }
    XCTAssertTrue(reason.contains("not a regular file"), reason)
  }

  func test_persistence_unreadableFile_throwsWhateverThePolicy() throws {
    // given: a file without read permission, or, for root (whom permissions don't stop), a
    // FIFO and then a directory where the file is expected: unreadable for everyone
    var makeUnreadable: [(String, () throws -> Void)] = [
      ("a FIFO", { unsafe XCTAssertEqual(mkfifo(self.url.path, 0o600), 0) }),
      (
        "a directory",
        {
          try FileManager.default.createDirectory(
            at: self.url, withIntermediateDirectories: false)
        }
      ),
    ]
    if geteuid() != 0 {
      makeUnreadable.append(
        (
          "a file without read permission",
          {
            try self.persistence().save(self.sample())
            unsafe chmod(self.url.path, 0o000)
          }
        ))
    }
    for (name, make) in makeUnreadable {
      try make()
      // when / then
      for policy in [RecoveryPolicy.fail, .startFresh] {
        XCTAssertThrowsError(
          try persistence().restore(initialState: DemoState(), recovery: policy)
        ) { error in
          guard case .unreadable? = error as? PersistenceError else {
            return XCTFail("\(name), \(policy): unexpected \(error)")
          }
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), "\(name) was moved")
      }
      XCTAssertEqual(directory.contents(), ["state.json"], name)
      try FileManager.default.removeItem(at: url)
    }
  }

  func test_persistence_randomBytes_neverCrash() throws {
    // given
    // seed 7 by default (STRESS_SEED moves it)
    var generator = SeededRandomNumberGenerator(seed: StressConfiguration.seed &+ 6)
    let valid = Array(
      try {
        try persistence().save(sample())
        return try Data(contentsOf: url)
      }())
    for round in 0..<StressConfiguration.iterations(60) {
      var bytes: [UInt8]
      switch round % 3 {
      case 0:
        bytes = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
          UInt8.random(in: 0...255, using: &generator)
        }
      case 1:
        bytes = Array(valid.prefix(Int.random(in: 0...valid.count, using: &generator)))
      default:
        bytes = valid
        for _ in 0..<3 {
          bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
            in: 0...255, using: &generator)
        }
      }
      XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data(bytes)))
      // when
      let restored = try persistence().restore(initialState: DemoState(), recovery: .startFresh)
      // then
      switch restored.origin {
      case .file, .recovered: break
      case .noFile: XCTFail("round \(round): the file was not read")
      }
      for name in directory.contents() where name.contains(".corrupt-") {
        try FileManager.default.removeItem(at: directory.file(name))
      }
    }
  }
}
