import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class OperationQueueSchedulerTests: ResourceTestCase {
  func test_schedule_runsActionsOnTheQueueInOrderWhenSerial() {
    // given
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
    let ran = LockedValues<Int>()
    // when
    for value in 0..<20 {
      _ = scheduler.schedule(value) { value in
        ran.append(value)
        return Disposables.create()
      }
    }
    queue.waitUntilAllOperationsAreFinished()
    // then
    XCTAssertEqual(ran.all, Array(0..<20))
    XCTAssertEqual(scheduler.queuePriority, .high)
  }

  func test_schedule_disposedBeforeStartSkipsTheAction() {
    // given
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    queue.isSuspended = true
    let scheduler = OperationQueueScheduler(operationQueue: queue)
    let ran = LockedValues<Int>()
    // when
    let cancelled = scheduler.schedule(1) { value in
      ran.append(value)
      return Disposables.create()
    }
    _ = scheduler.schedule(2) { value in
      ran.append(value)
      return Disposables.create()
    }
    cancelled.dispose()
    queue.isSuspended = false
    queue.waitUntilAllOperationsAreFinished()
    // then
    XCTAssertEqual(ran.all, [2])
  }

  func test_observeOn_deliversEveryElementThroughTheQueue() throws {
    // given
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 2
    let scheduler = OperationQueueScheduler(operationQueue: queue)
    // when
    let values = try Observable.range(start: 0, count: 100)
      .observe(on: scheduler)
      .toBlocking(timeout: 5)
      .toArray()
    // then
    XCTAssertEqual(values, Array(0..<100))
  }
}
