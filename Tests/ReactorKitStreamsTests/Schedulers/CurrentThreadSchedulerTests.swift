import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class CurrentThreadSchedulerTests: ResourceTestCase {
  func test_schedule_runsAtOnceWhenNoTrampolineIsActive() {
    // given
    var ran = false
    // when
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      ran = true
      return Disposables.create()
    }
    // then
    XCTAssertTrue(ran)
    XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
  }

  func test_schedule_recursiveWorkIsQueuedNotNested() {
    // given
    var log: [String] = []
    let scheduler = CurrentThreadScheduler.instance
    // when
    _ = scheduler.schedule(()) { _ in
      log.append("outer start")
      XCTAssertFalse(CurrentThreadScheduler.isScheduleRequired)
      _ = scheduler.schedule(()) { _ in
        log.append("inner 1 start")
        _ = scheduler.schedule(()) { _ in
          log.append("inner 3")
          return Disposables.create()
        }
        log.append("inner 1 end")
        return Disposables.create()
      }
      _ = scheduler.schedule(()) { _ in
        log.append("inner 2")
        return Disposables.create()
      }
      log.append("outer end")
      return Disposables.create()
    }
    // then
    XCTAssertEqual(
      log, ["outer start", "outer end", "inner 1 start", "inner 1 end", "inner 2", "inner 3"])
  }

  func test_schedule_disposedQueuedWorkDoesNotRun() {
    // given
    var log: [Int] = []
    let scheduler = CurrentThreadScheduler.instance
    // when
    _ = scheduler.schedule(()) { _ in
      let queued = scheduler.schedule(()) { _ in
        log.append(1)
        return Disposables.create()
      }
      _ = scheduler.schedule(()) { _ in
        log.append(2)
        return Disposables.create()
      }
      queued.dispose()
      return Disposables.create()
    }
    // then
    XCTAssertEqual(log, [2])
  }

  func test_schedule_trampolineIsPerThread() {
    // given
    let scheduler = CurrentThreadScheduler.instance
    let otherThreadRanAtOnce = LockedValues<Bool>()
    let done = expectation(description: "other thread")
    // when
    _ = scheduler.schedule(()) { _ in
      let semaphore = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        var ran = false
        XCTAssertTrue(CurrentThreadScheduler.isScheduleRequired)
        _ = scheduler.schedule(()) { _ in
          ran = true
          return Disposables.create()
        }
        otherThreadRanAtOnce.append(ran)
        semaphore.signal()
        done.fulfill()
      }
      semaphore.wait()
      return Disposables.create()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(otherThreadRanAtOnce.all, [true])
  }

  func test_scheduleRecursive_deepRecursionDoesNotGrowTheStack() {
    // given
    var count = 0
    // when
    let subscription = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
      count = value
      if value < 20_000 { recurse(value + 1) }
    }
    subscription.dispose()
    // then
    XCTAssertEqual(count, 20_000)
  }

  func test_scheduleRecursive_disposalStopsTheRecursion() {
    // given
    var count = 0
    var subscription: Disposable?
    // when
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      subscription = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
        count = value
        if value == 10 { subscription?.dispose() }
        recurse(value + 1)
      }
      return Disposables.create()
    }
    subscription = nil
    // then
    XCTAssertEqual(count, 10)
  }
}
