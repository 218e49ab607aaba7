import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class GroupByTests: ResourceTestCase {
  func test_groupBy_mergedGroupsKeepOrderAndSourceEndsWithIt() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
      .completed(600),
    ])
    // when
    let observer = scheduler.start {
      source.groupBy { $0 % 2 }.enumerated()
        .flatMap { index, group in group.map { "\(index) \($0)" } }
    }
    // then
    XCTAssertEqual(
      observer.events,
      [
        .next(205, "0 1"), .next(210, "1 2"), .next(240, "0 3"), .next(280, "1 4"),
        .next(320, "0 5"), .completed(600),
      ])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 600)])
  }

  func test_groupBy_emitsEachKeyOnceAndCountsKeySelectorCalls() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(220, "Foo"), .next(240, "foo"), .next(270, "bar"), .next(310, "BAR"),
      .next(350, "baz"), .completed(570), .next(580, "late"),
    ])
    var calls = 0
    // when
    let observer = scheduler.start {
      source.groupBy { (text: String) -> String in
        calls += 1
        return text.lowercased()
      }.map(\.key)
    }
    // then
    XCTAssertEqual(
      observer.events, [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .completed(570)])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 570)])
    XCTAssertEqual(calls, 5)
  }

  func test_groupBy_keySelectorErrorEndsGroupsAndResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(230, -1), .next(240, 3),
    ])
    let groupObserver = scheduler.createObserver(Int.self)
    let bag = DisposeBag()
    // when
    let observer = scheduler.start {
      source.groupBy { (value: Int) -> Int in
        if value < 0 { throw TestError(1) }
        return value % 2
      }
      .do(onNext: { group in
        if group.key == 1 { group.subscribe(groupObserver).disposed(by: bag) }
      })
      .map(\.key)
    }
    // then
    XCTAssertEqual(observer.events, [.next(210, 1), .next(220, 0), .error(230, TestError(1))])
    XCTAssertEqual(groupObserver.events, [.next(210, 1), .error(230, TestError(1))])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 230)])
  }

  func test_groupBy_sourceErrorReachesGroupsThenResult() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(2))])
    var order: [String] = []
    // when
    let observer = scheduler.start {
      source.groupBy { $0 }
        .do(onNext: { group in
          _ = group.subscribe(onError: { _ in order.append("group") })
        })
        .do(onError: { _ in order.append("result") })
    }
    // then
    XCTAssertEqual(observer.events.count, 2)
    XCTAssertEqual(order, ["group", "result"])
  }

  func test_groupBy_outerDisposalKeepsSubscribedGroupsRunning() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(210, "a1"), .next(220, "b1"), .next(310, "a2"), .next(320, "b2"),
      .next(410, "a3"), .completed(500),
    ])
    let groupA = scheduler.createObserver(String.self)
    var outer: Disposable?
    var inner: Disposable?
    // when
    scheduler.scheduleAt(200) {
      outer = source.groupBy { String($0.prefix(1)) }.subscribe(onNext: { group in
        if group.key == "a" { inner = group.subscribe(groupA) }
      })
    }
    scheduler.scheduleAt(300) { outer?.dispose() }
    scheduler.scheduleAt(400) { inner?.dispose() }
    scheduler.start()
    // then
    XCTAssertEqual(groupA.events, [.next(210, "a1"), .next(310, "a2")])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 400)])
  }

  func test_groupBy_outerDisposalWithoutGroupSubscribersDisposesSource() {
    // given
    let scheduler = TestScheduler(initialClock: 0)
    let source = scheduler.createHotObservable([
      .next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .next(400, "qux"),
    ])
    // when
    let observer = scheduler.start(disposed: 355) { source.groupBy { $0 }.map(\.key) }
    // then
    XCTAssertEqual(observer.events, [.next(220, "foo"), .next(270, "bar"), .next(350, "baz")])
    XCTAssertEqual(source.subscriptions, [Subscription(200, 355)])
  }

  func test_groupBy_groupSubscribedAfterCompletionCompletes() throws {
    // given
    var groups: [GroupedObservable<Int, Int>] = []
    // when
    _ = Observable.of(1, 2, 3).groupBy { $0 % 2 }.subscribe(onNext: { groups.append($0) })
    let late = try groups[0].toBlocking(timeout: 1).toArray()
    // then
    XCTAssertEqual(groups.map(\.key), [1, 0])
    XCTAssertEqual(late, [])
  }

  func test_groupBy_groupsSubscribedAndDisposedOnOtherThreadsWhileSourceEmits() {
    // given
    let subject = PublishSubject<Int>()
    let groups = LockedValues<GroupedObservable<Int, Int>>()
    let misrouted = LockedValues<Int>()
    let outer = subject.groupBy { $0 % 4 }.subscribe(onNext: { groups.append($0) })
    // when
    runConcurrently(threads: 3) { index in
      if index == 0 {
        for value in 0..<StressConfiguration.iterations(2_000) {
          subject.onNext(value)
          if value % 50 == 0 { sched_yield() }
        }
        return
      }
      for round in 0..<StressConfiguration.iterations(300) {
        let current = groups.all
        guard !current.isEmpty else {
          sched_yield()
          continue
        }
        let group = current[(round + index) % current.count]
        let subscription = group.subscribe(onNext: { value in
          if value % 4 != group.key { misrouted.append(value) }
        })
        sched_yield()
        subscription.dispose()
      }
    }
    outer.dispose()
    // then
    XCTAssertEqual(groups.all.map(\.key), [0, 1, 2, 3])
    XCTAssertEqual(misrouted.all, [])
    XCTAssertFalse(subject.hasObservers, "The source is released with the last subscription.")
  }
}
