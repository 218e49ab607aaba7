import Foundation
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// Files the plugins open that someone else controls (issue 14, item 5): FIFOs and hard links
/// at a log's or recording's path, and two processes sharing one state file.
final class PluginFileSafetyTests: ResourceTestCase {
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

  /// Runs `body` on another thread and waits at most `timeout` seconds for it.
  private func finishes(within timeout: TimeInterval, _ body: @escaping @Sendable () -> Void)
    -> Bool
  {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      body()
      done.signal()
    }
    return done.wait(timeout: .now() + timeout) == .success
  }

  // MARK: - FIFOs

  func test_logFileSink_fifoAtThePath_isRefused_withoutHanging() {
    // given: a FIFO with a reader, so a blocking open would succeed and then write into it
    let path = directory.file("log.jsonl").path
    unsafe XCTAssertEqual(mkfifo(path, 0o600), 0)
    let reader = unsafe open(path, O_RDONLY | O_NONBLOCK)
    defer { if reader >= 0 { close(reader) } }
    let result = StoreLockedBox<Result<Void, LogFileError>?>(nil)
    // when
    let finished = finishes(within: 5) {
      do throws(LogFileError) {
        _ = try LogSink.file(URL(fileURLWithPath: path))
        result.withLock { $0 = .success(()) }
      } catch {
        result.withLock { $0 = .failure(error) }
      }
    }
    // then
    XCTAssertTrue(finished, "opening a FIFO hung")
    guard case .failure(let error)? = result.current else {
      return XCTFail("a FIFO was accepted as a log file")
    }
    XCTAssertTrue(error.reason.contains("not a regular file"), error.reason)
  }

  func test_logFileSink_fifoWithoutAReader_doesNotHang() {
    // given
    let path = directory.file("log.jsonl").path
    unsafe XCTAssertEqual(mkfifo(path, 0o600), 0)
    let refused = StoreLockedBox(false)
    // when
    let finished = finishes(within: 5) {
      do {
        _ = try LogSink.file(URL(fileURLWithPath: path))
      } catch {
        refused.withLock { $0 = true }
      }
    }
    // then
    XCTAssertTrue(finished, "opening a FIFO hung")
    if finished { XCTAssertTrue(refused.current) }
    if !finished {
      // Unblock the stuck open so the thread ends.
      let reader = unsafe open(path, O_RDONLY | O_NONBLOCK)
      if reader >= 0 { close(reader) }
    }
  }

  func test_recorder_fifoAtThePath_isRefused_withoutHanging() {
    // given
    let path = directory.file("session.jsonl").path
    unsafe XCTAssertEqual(mkfifo(path, 0o600), 0)
    let reader = unsafe open(path, O_RDONLY | O_NONBLOCK)
    defer { if reader >= 0 { close(reader) } }
    let result = StoreLockedBox<RecordingError?>(nil)
    // when
    let finished = finishes(within: 5) {
      do throws(RecordingError) {
        _ = try ActionRecorder(registry: DemoState.registry, url: URL(fileURLWithPath: path))
      } catch {
        result.withLock { $0 = error }
      }
    }
    // then
    XCTAssertTrue(finished, "opening a FIFO hung")
    guard case .writeFailed(_, let reason)? = result.current else {
      return XCTFail("a FIFO was accepted: \(String(describing: result.current))")
    }
    XCTAssertTrue(reason.contains("not a regular file"), reason)
  }

  // MARK: - Hard links

  func test_logFileSink_hardLinkToAnotherFile_isRefused_andTheOtherFileIsUntouched() throws {
    // given
    let victim = directory.file("victim.txt").path
    XCTAssertTrue(FileManager.default.createFile(atPath: victim, contents: Data("keep".utf8)))
    let path = directory.file("log.jsonl").path
    unsafe XCTAssertEqual(link(victim, path), 0)
    // when
    for truncate in [false, true] {
      XCTAssertThrowsError(try LogSink.file(URL(fileURLWithPath: path), truncate: truncate)) {
        error in
        // then
        let reason = (error as? LogFileError)?.reason ?? ""
        XCTAssertTrue(reason.contains("link"), reason)
      }
    }
    XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep")
  }

  func test_recorder_hardLinkToAnotherFile_isRefused_andNotTruncated() throws {
    // given
    let victim = directory.file("victim.txt").path
    XCTAssertTrue(FileManager.default.createFile(atPath: victim, contents: Data("keep".utf8)))
    let path = directory.file("session.jsonl").path
    unsafe XCTAssertEqual(link(victim, path), 0)
    // when
    XCTAssertThrowsError(
      try ActionRecorder(registry: DemoState.registry, url: URL(fileURLWithPath: path))
    ) { error in
      // then
      guard case .writeFailed(_, let reason)? = error as? RecordingError else {
        return XCTFail("unexpected \(error)")
      }
      XCTAssertTrue(reason.contains("link"), reason)
    }
    XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep")
  }

  func test_logFileSink_ordinaryExistingFile_isStillAppendedTo() throws {
    // given
    let url = directory.file("log.txt")
    XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("old\n".utf8)))
    // when
    let logger = LoggingPlugin(sink: try LogSink.file(url, format: .text))
    logger.log(source: "app", kind: .action, description: "new")
    logger.flush()
    // then
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertTrue(text.hasPrefix("old\n"), text)
    XCTAssertTrue(text.contains("[app] action new"), text)
  }

  // MARK: - Two processes, one state file

  func test_restore_keepsAnotherLiveProcesssTemporaryFile_andRemovesADeadOnes() throws {
    // given: pid 1 is alive (it is always); pid 2147483646 is never a process
    let url = directory.file("state.json")
    try StatePersistence<DemoState>(url: url).save(DemoState(nextID: 3))
    let live = directory.file(".state.json.tmp-1-77").path
    let dead = directory.file(".state.json.tmp-2147483646-78").path
    for path in [live, dead] {
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("{\"fo".utf8)))
    }
    // when
    let restored = try StatePersistence<DemoState>(url: url).restore(initialState: DemoState())
    // then
    XCTAssertEqual(restored.state.nextID, 3)
    XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a live writer's file was removed")
    XCTAssertFalse(FileManager.default.fileExists(atPath: dead), "a crashed writer's file was kept")
  }

  func test_moveAside_neverReplacesAFileThatAppearsAtTheChosenName() throws {
    // given: two "processes" move bad copies of one state file aside at the same second
    let path = directory.file("state.json").path
    let timestamp = "20250101T000000Z"
    let rounds = StressConfiguration.iterations(300)
    var lost = 0
    for round in 0..<rounds {
      let other = directory.file("other-\(round)").path
      XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("mine".utf8)))
      XCTAssertTrue(FileManager.default.createFile(atPath: other, contents: Data("theirs".utf8)))
      let barrier = SpinBarrier(count: 2)
      let movedTo = StoreLockedBox<String?>(nil)
      // when: the other process links its file to the first name while this one moves
      let group = DispatchGroup()
      DispatchQueue.global().async(group: group) {
        barrier.arriveAndWait()
        let name = "\(path).corrupt-\(timestamp)"
        if unsafe link(other, name) != 0 { _ = unsafe link(other, name + "-x\(round)") }
      }
      DispatchQueue.global().async(group: group) {
        barrier.arriveAndWait()
        let result = try? SecureFiles.moveAside(path, suffix: "corrupt", timestamp: timestamp)
        movedTo.withLock { $0 = result }
      }
      XCTAssertEqual(group.wait(timeout: .now() + 10), .success)
      // then: both copies exist
      let names = directory.contents().filter { $0.contains(".corrupt-") }
      let contents = Set(
        names.compactMap { try? String(contentsOf: directory.file($0), encoding: .utf8) })
      if contents != ["mine", "theirs"] { lost += 1 }
      for name in names { unsafe unlink(directory.file(name).path) }
      unsafe unlink(other)
    }
    XCTAssertEqual(lost, 0, "a moved-aside file replaced another in \(lost) of \(rounds) rounds")
  }
}
