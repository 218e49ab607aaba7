import XCTest

@testable import ReactorKitStreams

final class MergeStateMachineTests: XCTestCase {
  private typealias Machine = MergeStateMachine<String>

  func test_mergeStateMachine_concurrentQueuesBeyondLimitAndStartsOnCompletion() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: 1))
    // when
    let first = machine.arrive("a")
    let afterFirst = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    let second = machine.arrive("b")
    let completion = machine.innerCompleted(id: 0)
    // then
    XCTAssertEqual(first, 0)
    XCTAssertNil(afterFirst.subscribe)
    XCTAssertNil(second, "the second inner must wait")
    XCTAssertNotNil(completion.dispose, "the finished inner's subscription is released")
    XCTAssertEqual(completion.subscribe?.inner, "b")
    XCTAssertEqual(completion.subscribe?.id, 1)
    XCTAssertFalse(completion.complete)
  }

  func test_mergeStateMachine_innerArrivingDuringSubscribeWaitsForTheLoop() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: .max))
    _ = machine.arrive("a")
    // when
    let reentrant = machine.arrive("b")
    let returned = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    // then
    XCTAssertNil(reentrant)
    XCTAssertEqual(returned.subscribe?.inner, "b")
  }

  func test_mergeStateMachine_synchronousCompletionDisposesWhenSubscribeReturns() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: .max))
    _ = machine.arrive("a")
    let disposable = BooleanDisposable()
    // when
    let completion = machine.innerCompleted(id: 0)
    let returned = machine.subscribeReturned(id: 0, disposable: disposable)
    returned.dispose?.dispose()
    // then
    XCTAssertNil(completion.dispose)
    XCTAssertTrue(disposable.isDisposed)
    XCTAssertTrue(machine.live.isEmpty)
  }

  func test_mergeStateMachine_completesOnlyAfterOuterAndAllInners() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: .max))
    _ = machine.arrive("a")
    _ = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    // when
    let outerDone = machine.outerDidComplete()
    let innerDone = machine.innerCompleted(id: 0)
    // then
    XCTAssertFalse(outerDone)
    XCTAssertTrue(innerDone.complete)
  }

  func test_mergeStateMachine_latestReplacesAndIgnoresStaleInner() {
    // given
    var machine = Machine(strategy: .latest)
    _ = machine.arrive("a")
    let firstSubscription = BooleanDisposable()
    _ = machine.subscribeReturned(id: 0, disposable: firstSubscription)
    // when
    var replaced: Disposable?
    let second = machine.innerArrived("b", replaced: &replaced)
    replaced?.dispose()
    let staleCompletion = machine.innerCompleted(id: 0)
    // then
    XCTAssertEqual(second, 1)
    XCTAssertTrue(firstSubscription.isDisposed)
    XCTAssertFalse(machine.isCurrent(0))
    XCTAssertTrue(machine.isCurrent(1))
    XCTAssertNil(staleCompletion.dispose)
    XCTAssertEqual(machine.active, 1)
  }

  func test_mergeStateMachine_firstDropsWhileActive() {
    // given
    var machine = Machine(strategy: .first)
    // when
    let accepted = machine.outerElementArrived()
    _ = machine.arrive("a")
    let dropped = machine.outerElementArrived()
    // then
    XCTAssertTrue(accepted)
    XCTAssertFalse(dropped)
  }

  func test_mergeStateMachine_terminateReturnsLiveSubscriptionsAndStopsStarting() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: 1))
    _ = machine.arrive("a")
    _ = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    _ = machine.arrive("b")
    // when
    let live = machine.terminate()
    let afterwards = machine.arrive("c")
    // then
    XCTAssertEqual(live.count, 1)
    XCTAssertNil(afterwards)
    XCTAssertTrue(machine.waiting.isEmpty)
  }

  func test_mergeStateMachine_synchronousInnerHandsOverTheWaitingInnerInOrder() {
    // given: "a" is being delivered synchronously; "b" and "c" arrive meanwhile
    var machine = Machine(strategy: .concurrent(maxConcurrent: 1))
    let first = machine.arrive("a")
    _ = machine.arrive("b")
    _ = machine.arrive("c")
    // when
    let finished = machine.synchronousInnerFinished(id: 0)
    // then
    XCTAssertEqual(first, 0)
    XCTAssertFalse(finished.complete)
    XCTAssertEqual(finished.next?.inner, "b")
    XCTAssertEqual(finished.next?.id, 1)
    XCTAssertEqual(machine.subscribing?.id, 1)
    XCTAssertEqual(machine.active, 1)
    XCTAssertEqual(machine.waiting.count, 1)
  }

  func test_mergeStateMachine_synchronousInnerCompletesOnlyAfterOuter() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: .max))
    _ = machine.arrive("a")
    let beforeOuter = machine.synchronousInnerFinished(id: 0)
    _ = machine.arrive("b")
    // when
    let outerDone = machine.outerDidComplete()
    let afterOuter = machine.synchronousInnerFinished(id: 1)
    // then
    XCTAssertFalse(beforeOuter.complete)
    XCTAssertFalse(outerDone)
    XCTAssertTrue(afterOuter.complete)
    XCTAssertNil(afterOuter.next)
    XCTAssertTrue(machine.live.isEmpty)
  }

  func test_mergeStateMachine_replacedSynchronousInnerLeavesTheLatestRunning() {
    // given: "b" replaces "a" while "a" is being delivered, and finishes first
    var machine = Machine(strategy: .latest)
    _ = machine.arrive("a")
    _ = machine.arrive("b")
    _ = machine.synchronousInnerFinished(id: 1)
    let outerDone = machine.outerDidComplete()
    // when
    let stale = machine.synchronousInnerFinished(id: 0)
    // then
    XCTAssertTrue(outerDone)
    XCTAssertFalse(stale.complete, "the stale inner must not complete the sequence twice")
    XCTAssertEqual(machine.active, 0)
  }
}

extension MergeStateMachine {
  /// ``innerArrived(_:replaced:)`` for strategies that replace nothing.
  fileprivate mutating func arrive(_ inner: Inner) -> UInt64? {
    var replaced: Disposable?
    return innerArrived(inner, replaced: &replaced)
  }
}
