import Dispatch
import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class DispatchQueueSchedulerTests: ResourceTestCase {
  func test_scheduleRelative_firedTimerReleasesItsAction() {
    // given
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.relative")
    let fired = expectation(description: "fired")
    weak var weakToken: Token?
    // when
    do {
      let token = Token()
      weakToken = token
      _ = scheduler.scheduleRelative(token, dueTime: .milliseconds(1)) { _ in
        fired.fulfill()
        return Disposables.create()
      }
    }
    wait(for: [fired], timeout: 5)
    // then
    let deadline = Date().addingTimeInterval(2)
    while weakToken != nil && Date() < deadline { usleep(1_000) }
    XCTAssertNil(weakToken, "The fired timer still holds its action")
  }

  func test_scheduleRelative_disposedBeforeDueTimeNeverRuns() {
    // given
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.cancel")
    let ran = LockedValues<Int>()
    let later = expectation(description: "later timer")
    // when
    let cancelled = scheduler.scheduleRelative(1, dueTime: .milliseconds(20)) { value in
      ran.append(value)
      return Disposables.create()
    }
    cancelled.dispose()
    _ = scheduler.scheduleRelative(2, dueTime: .milliseconds(60)) { value in
      ran.append(value)
      later.fulfill()
      return Disposables.create()
    }
    wait(for: [later], timeout: 5)
    // then
    XCTAssertEqual(ran.all, [2])
  }

  func test_serialScheduler_runsWorkInOrderOneAtATime() {
    // given
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.serial")
    let values = LockedValues<Int>()
    let active = LockedCounter()
    let overlaps = LockedCounter()
    let done = expectation(description: "all ran")
    // when
    for index in 0..<500 {
      _ = scheduler.schedule(index) { value in
        if active.increment() != 1 { _ = overlaps.increment() }
        if values.append(value) == 500 { done.fulfill() }
        active.decrement()
        return Disposables.create()
      }
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(values.all, Array(0..<500))
    XCTAssertEqual(overlaps.increment(), 1)
  }

  func test_concurrentScheduler_runsEveryItem() {
    // given
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
    let values = LockedValues<Int>()
    let done = expectation(description: "all ran")
    // when
    for index in 0..<200 {
      _ = scheduler.schedule(index) { value in
        if values.append(value) == 200 { done.fulfill() }
        return Disposables.create()
      }
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(values.all.sorted(), Array(0..<200))
  }

  func test_schedulePeriodic_threadsStateUntilDisposed() {
    // given
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "test.periodic")
    let values = LockedValues<Int>()
    let done = expectation(description: "five ticks")
    // when
    let periodic = scheduler.schedulePeriodic(
      0, startAfter: .milliseconds(1), period: .milliseconds(2)
    ) { state in
      if values.append(state) == 5 { done.fulfill() }
      return state + 1
    }
    wait(for: [done], timeout: 5)
    periodic.dispose()
    let countAtDisposal = values.all.count
    // A marker on the same serial queue, due ten periods later: every tick a live timer
    // would fire by then runs before it.
    let marker = expectation(description: "ten periods later, on the same queue")
    let countAtMarker = LockedValues<Int>()
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
      countAtMarker.append(values.all.count)
      marker.fulfill()
      return Disposables.create()
    }
    wait(for: [marker], timeout: 5)
    // then: at most the tick already under way when `dispose()` returned
    XCTAssertEqual(Array(values.all.prefix(5)), [0, 1, 2, 3, 4])
    XCTAssertLessThanOrEqual(countAtMarker.all.first ?? .max, countAtDisposal + 1)
  }

  func test_serialScheduler_targetQueueIsUsed() {
    // given
    let target = DispatchQueue(label: "test.target")
    let key = DispatchSpecificKey<Int>()
    target.setSpecific(key: key, value: 3)
    let scheduler = SerialDispatchQueueScheduler(queue: target, internalSerialQueueName: "inner")
    let seen = LockedValues<Int?>()
    let done = expectation(description: "ran")
    // when
    _ = scheduler.schedule(()) { _ in
      seen.append(DispatchQueue.getSpecific(key: key))
      done.fulfill()
      return Disposables.create()
    }
    wait(for: [done], timeout: 5)
    // then
    XCTAssertEqual(seen.all, [3])
  }
}

private final class Token {}
