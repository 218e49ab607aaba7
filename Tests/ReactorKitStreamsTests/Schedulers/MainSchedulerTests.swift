import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class MainSchedulerTests: ResourceTestCase {
  override func setUp() {
    super.setUp()
    // Main-scheduler work runs at once only when nothing is queued on the main queue.
    drainMainQueue()
  }

  func test_instance_runsAtOnceOnTheMainThread() {
    // given
    var ran = false
    // when
    _ = MainScheduler.instance.schedule(()) { _ in
      ran = true
      return Disposables.create()
    }
    // then
    XCTAssertTrue(ran)
  }

  func test_instance_nestedWorkIsQueuedBehindTheCurrentItem() {
    // given
    var log: [String] = []
    let done = expectation(description: "nested ran")
    // when
    _ = MainScheduler.instance.schedule(()) { _ in
      log.append("outer start")
      _ = MainScheduler.instance.schedule(()) { _ in
        log.append("inner")
        done.fulfill()
        return Disposables.create()
      }
      log.append("outer end")
      return Disposables.create()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(log, ["outer start", "outer end", "inner"])
  }

  func test_instance_fromBackgroundThreadRunsOnTheMainQueue() {
    // given
    let done = expectation(description: "ran on main")
    let onMain = LockedValues<Bool>()
    // when
    DispatchQueue.global().async {
      _ = MainScheduler.instance.schedule(()) { _ in
        onMain.append(MainScheduler.isMainThread)
        dispatchPrecondition(condition: .onQueue(.main))
        done.fulfill()
        return Disposables.create()
      }
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(onMain.all, [true])
  }

  func test_asyncInstance_alwaysGoesThroughTheMainQueue() {
    // given
    var ran = false
    let done = expectation(description: "ran")
    // when
    _ = MainScheduler.asyncInstance.schedule(()) { _ in
      ran = true
      done.fulfill()
      return Disposables.create()
    }
    let ranSynchronously = ran
    wait(for: [done], timeout: 5)
    // then
    XCTAssertFalse(ranSynchronously)
    XCTAssertTrue(ran)
  }

  func test_asyncInstance_disposedWorkDoesNotRun() {
    // given
    var log: [Int] = []
    let done = expectation(description: "later ran")
    // when
    let cancelled = MainScheduler.asyncInstance.schedule(()) { _ in
      log.append(1)
      return Disposables.create()
    }
    _ = MainScheduler.asyncInstance.schedule(()) { _ in
      log.append(2)
      done.fulfill()
      return Disposables.create()
    }
    cancelled.dispose()
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(log, [2])
  }

  func test_scheduleRelative_firesOnTheMainQueue() {
    // given
    let done = expectation(description: "fired")
    var onMain = false
    // when
    _ = MainScheduler.instance.scheduleRelative((), dueTime: .milliseconds(5)) { _ in
      onMain = MainScheduler.isMainThread
      done.fulfill()
      return Disposables.create()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertTrue(onMain)
  }

  func test_isMainThread_falseOnBackgroundThreads() {
    // given
    let done = expectation(description: "checked")
    let results = LockedValues<Bool>()
    // when
    DispatchQueue.global().async {
      results.append(MainScheduler.isMainThread)
      done.fulfill()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(results.all, [false])
    XCTAssertTrue(MainScheduler.isMainThread)
  }

  func test_isMainThread_keepsEachThreadsAnswerWhenAskedAgain() {
    // given
    let results = LockedValues<Bool>()
    let finished = DispatchSemaphore(value: 0)
    // when
    Thread {
      for _ in 0..<3 { results.append(MainScheduler.isMainThread) }
      finished.signal()
    }.start()
    finished.wait()
    let onMain = (0..<3).map { _ in MainScheduler.isMainThread }
    // then
    XCTAssertEqual(results.all, [false, false, false])
    XCTAssertEqual(onMain, [true, true, true])
  }
}
