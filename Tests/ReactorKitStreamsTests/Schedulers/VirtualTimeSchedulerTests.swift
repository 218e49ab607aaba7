import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class VirtualTimeSchedulerTests: ResourceTestCase {
  func test_start_runsWorkInTimeOrderFirstScheduledFirst() {
    // given
    let scheduler = VirtualTimeScheduler(initialClock: 0, converter: MillisecondConverter())
    var log: [String] = []
    scheduler.at(20) { log.append("b@\(scheduler.clock)") }
    scheduler.at(10) { log.append("a@\(scheduler.clock)") }
    scheduler.at(20) { log.append("c@\(scheduler.clock)") }
    // when
    scheduler.start()
    // then
    XCTAssertEqual(log, ["a@10", "b@20", "c@20"])
    XCTAssertEqual(scheduler.clock, 20)
    XCTAssertEqual(scheduler.now, Date(timeIntervalSince1970: 0.02))
  }

  func test_scheduleRelative_convertsTheIntervalAndNeverNeverRuns() {
    // given
    let scheduler = VirtualTimeScheduler(initialClock: 100, converter: MillisecondConverter())
    var times: [Int] = []
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(30)) { _ in
      times.append(scheduler.clock)
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
      times.append(-1)
      return Disposables.create()
    }
    _ = scheduler.schedule(()) { _ in
      times.append(scheduler.clock)
      return Disposables.create()
    }
    scheduler.scheduleRelativeVirtual((), dueTime: 5) { _ in
      times.append(scheduler.clock)
      return Disposables.create()
    }
    // when
    scheduler.start()
    // then
    XCTAssertEqual(times, [100, 105, 130])
  }

  func test_advanceToSleepStopAndDisposal() {
    // given
    let scheduler = VirtualTimeScheduler(initialClock: 0, converter: MillisecondConverter())
    var log: [Int] = []
    scheduler.at(10) { log.append(10) }
    let cancelled = scheduler.scheduleAbsoluteVirtual((), time: 15) { _ in
      log.append(15)
      return Disposables.create()
    }
    scheduler.at(20) {
      log.append(20)
      scheduler.stop()
    }
    scheduler.at(30) { log.append(30) }
    cancelled.dispose()
    // when
    scheduler.advanceTo(12)
    let afterAdvance = (log, scheduler.clock)
    scheduler.sleep(3)
    let afterSleep = scheduler.clock
    scheduler.start()
    let afterStop = (log, scheduler.clock)
    scheduler.start()
    // then
    XCTAssertEqual(afterAdvance.0, [10])
    XCTAssertEqual(afterAdvance.1, 12)
    XCTAssertEqual(afterSleep, 15)
    XCTAssertEqual(afterStop.0, [10, 20])
    XCTAssertEqual(afterStop.1, 20)
    XCTAssertEqual(log, [10, 20, 30])
  }

  func test_timeOperators_runOnAVirtualTimeScheduler() {
    // given
    let scheduler = VirtualTimeScheduler(initialClock: 0, converter: MillisecondConverter())
    var received: [String] = []
    let subscription = Observable<Int>.interval(.milliseconds(10), scheduler: scheduler)
      .take(3)
      .subscribe(
        onNext: { received.append("\($0)@\(scheduler.clock)") },
        onCompleted: { received.append("done@\(scheduler.clock)") })
    // when
    scheduler.start()
    // then
    XCTAssertEqual(received, ["0@10", "1@20", "2@30", "done@30"])
    subscription.dispose()
  }

  func test_testScheduler_isAVirtualTimeSchedulerWithProcessingDelay() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let base: VirtualTimeScheduler<TestSchedulerVirtualTimeConverter> = scheduler
    var times: [Int] = []
    // when
    scheduler.scheduleAt(10) {
      _ = base.schedule(()) { _ in
        times.append(scheduler.clock)
        return Disposables.create()
      }
    }
    scheduler.start()
    // then
    XCTAssertEqual(times, [11])
    XCTAssertEqual(base.converter.convertToVirtualTimeInterval(.milliseconds(1_500)), 2)
    XCTAssertEqual(base.converter.convertFromVirtualTimeInterval(2), .nanoseconds(2_000_000_000))
    XCTAssertEqual(base.converter.offsetVirtualTime(.max, offset: 1), .max)
  }
}

/// One virtual unit per millisecond.
private struct MillisecondConverter: VirtualTimeConverterType {
  func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
    Date(timeIntervalSince1970: Double(virtualTime) / 1_000)
  }
  func convertToVirtualTime(_ time: RxTime) -> Int {
    Int((time.timeIntervalSince1970 * 1_000).rounded())
  }
  func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> RxTimeInterval {
    .milliseconds(virtualTimeInterval)
  }
  func convertToVirtualTimeInterval(_ timeInterval: RxTimeInterval) -> Int {
    Int((timeInterval.seconds * 1_000).rounded())
  }
  func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
  func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
    lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}

extension VirtualTimeScheduler {
  /// Schedules a closure without state or result, for brevity.
  fileprivate func at(_ time: VirtualTime, _ body: @escaping () -> Void) {
    scheduleAbsoluteVirtual((), time: time) { _ in
      body()
      return Disposables.create()
    }
  }
}
