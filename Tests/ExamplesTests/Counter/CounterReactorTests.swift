import CounterKit
import ReactorKit
import ReactorKitTesting
import XCTest

final class CounterReactorTests: ResourceTestCase {
  func test_increase_showsLoadingThenAddsOneAfterTheDelay() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = CounterReactor(delay: .seconds(2), scheduler: scheduler)
    let observer = scheduler.createObserver(Snapshot.self)
    let subscription = reactor.state.map(Snapshot.init).subscribe(observer)
    // when
    scheduler.scheduleAt(10) { reactor.action.onNext(.increase) }
    scheduler.start()
    // then: the delayed `just` completes one unit after its element, as in RxSwift, and
    // `concat` goes on from there
    XCTAssertEqual(
      observer.events,
      [
        .next(0, Snapshot(0, loading: false)), .next(10, Snapshot(0, loading: true)),
        .next(12, Snapshot(1, loading: true)), .next(13, Snapshot(1, loading: false)),
      ])
    subscription.dispose()
  }

  func test_decrease_subtractsOneAfterTheDelay() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = CounterReactor(value: 2, delay: .seconds(3), scheduler: scheduler)
    let observer = scheduler.createObserver(Snapshot.self)
    let subscription = reactor.state.map(Snapshot.init).subscribe(observer)
    // when
    scheduler.scheduleAt(10) { reactor.action.onNext(.decrease) }
    scheduler.advanceTo(12)
    let midway = reactor.currentState.isLoading
    scheduler.start()
    // then
    XCTAssertTrue(midway)
    XCTAssertEqual(observer.events.last, .next(14, Snapshot(1, loading: false)))
    XCTAssertEqual(reactor.currentState.value, 1)
    subscription.dispose()
  }

  func test_press_whileLoading_isIgnored() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = CounterReactor(delay: .seconds(5), scheduler: scheduler)
    // when
    scheduler.scheduleAt(10) { reactor.action.onNext(.increase) }
    scheduler.scheduleAt(12) { reactor.action.onNext(.increase) }
    scheduler.scheduleAt(13) { reactor.action.onNext(.decrease) }
    scheduler.scheduleAt(20) { reactor.action.onNext(.increase) }
    scheduler.start()
    // then
    XCTAssertEqual(reactor.currentState.value, 2)
    XCTAssertFalse(reactor.currentState.isLoading)
  }

  func test_increase_atTheMaximum_raisesAnAlertAndKeepsTheValue() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = CounterReactor(value: 3, range: 0...3, delay: .seconds(1), scheduler: scheduler)
    let alerts = scheduler.createObserver(String.self)
    let subscription = reactor.pulse(\.$alertMessage).compactMap { $0 }.subscribe(alerts)
    // when
    scheduler.scheduleAt(10) { reactor.action.onNext(.increase) }
    scheduler.scheduleAt(20) { reactor.action.onNext(.increase) }
    scheduler.start()
    // then
    let message = "The counter is already at its maximum (3)."
    XCTAssertEqual(alerts.events, [.next(10, message), .next(20, message)])
    XCTAssertEqual(reactor.currentState.value, 3)
    XCTAssertFalse(reactor.currentState.isLoading)
    subscription.dispose()
  }

  func test_decrease_atTheMinimum_raisesAnAlert() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let reactor = CounterReactor(value: -1, range: -1...1, delay: .seconds(1), scheduler: scheduler)
    // when
    scheduler.scheduleAt(10) { reactor.action.onNext(.decrease) }
    scheduler.start()
    // then
    XCTAssertEqual(reactor.currentState.alertMessage, "The counter is already at its minimum (-1).")
    XCTAssertEqual(reactor.currentState.value, -1)
  }

  func test_reactor_isFreedWithItsPendingDelay() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    var reactor: CounterReactor? = CounterReactor(delay: .seconds(5), scheduler: scheduler)
    weak let weakReactor = reactor
    // when
    reactor?.action.onNext(.increase)
    reactor = nil
    // then
    XCTAssertNil(weakReactor)
    scheduler.start()
  }
}

private struct Snapshot: Equatable {
  var value: Int
  var isLoading: Bool

  init(_ value: Int, loading: Bool) {
    self.value = value
    isLoading = loading
  }

  init(_ state: CounterReactor.State) {
    self.init(state.value, loading: state.isLoading)
  }
}
