import ReactorKitStreams
import ReactorKitTesting
import XCTest

final class WithUnretainedTests: ResourceTestCase {
  func test_withUnretained_pairsElementsWithObject() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
    let owner = Owner(name: "a")
    // when
    let observer = scheduler.start {
      source.withUnretained(owner).map { object, value in "\(object.name)\(value)" }
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, "a1"), .next(220, "a2"), .completed(230)])
  }

  func test_withUnretained_completesAtFirstElementAfterObjectFreed() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .next(240, 3)])
    var owner: Owner? = Owner(name: "a")
    weak let weakOwner = owner
    let observed = source.withUnretained(owner!) { object, value in "\(object.name)\(value)" }
    scheduler.scheduleAt(220) { owner = nil }
    // when
    let observer = scheduler.start { observed }
    // then
    XCTAssertNil(weakOwner)
    XCTAssertEqual(observer.events, [.next(210, "a1"), .completed(230)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_withUnretained_forwardsErrors() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.error(210, TestError(1), Int.self)])
    let owner = Owner(name: "a")
    // when
    let observer = scheduler.start { source.withUnretained(owner).map { $1 } }
    // then
    XCTAssertEqual(observer.events, [.error(210, TestError(1))])
    withExtendedLifetime(owner) {}
  }
}

private final class Owner {
  let name: String
  init(name: String) { self.name = name }
}
