import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class HistoricalSchedulerTests: ResourceTestCase {
  func test_historicalScheduler_runsWorkInDateOrderAndMovesClock() {
    // given
    let start = Date(timeIntervalSince1970: 1_000)
    let scheduler = HistoricalScheduler(initialClock: start)
    var ran: [(String, Date)] = []
    // when
    _ = scheduler.scheduleRelative((), dueTime: .seconds(20)) { _ in
      ran.append(("late", scheduler.now))
      return Disposables.create()
    }
    _ = scheduler.scheduleAbsoluteVirtual((), time: start.addingTimeInterval(5)) { _ in
      ran.append(("early", scheduler.now))
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(1_500)) { _ in
      ran.append(("first", scheduler.clock))
      return Disposables.create()
    }
    scheduler.start()
    // then
    XCTAssertEqual(ran.map(\.0), ["first", "early", "late"])
    XCTAssertEqual(ran.map(\.1.timeIntervalSince1970), [1_001.5, 1_005, 1_020])
    XCTAssertEqual(scheduler.clock, start.addingTimeInterval(20))
  }

  func test_historicalScheduler_defaultsToEpochAndDrivesOperators() {
    // given
    let scheduler = HistoricalScheduler()
    var received: [Date] = []
    // when
    let subscription = Observable<Int>.interval(.seconds(10), scheduler: scheduler).take(3)
      .map { _ in scheduler.now }
      .subscribe(onNext: { received.append($0) })
    scheduler.advanceTo(Date(timeIntervalSince1970: 25))
    // then
    XCTAssertEqual(received.map(\.timeIntervalSince1970), [10, 20])
    scheduler.start()
    XCTAssertEqual(received.map(\.timeIntervalSince1970), [10, 20, 30])
    subscription.dispose()
  }

  func test_historicalSchedulerConverter_isIdentityOnIntervals() {
    // given
    let converter = HistoricalSchedulerTimeConverter()
    // then
    XCTAssertEqual(converter.convertToVirtualTimeInterval(2.5 as TimeInterval), 2.5)
    XCTAssertEqual(converter.convertToVirtualTimeInterval(RxTimeInterval.milliseconds(250)), 0.25)
    XCTAssertEqual(
      converter.convertFromVirtualTimeInterval(1.5) as RxTimeInterval, .nanoseconds(1_500_000_000))
  }
}
