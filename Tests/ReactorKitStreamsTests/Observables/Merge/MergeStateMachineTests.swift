import XCTest

@testable import ReactorKitStreams

final class MergeStateMachineTests: XCTestCase {
  private typealias Machine = MergeStateMachine<String>

  func test_mergeStateMachine_concurrentQueuesBeyondLimitAndStartsOnCompletion() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: 1))
    // when
    let first = machine.innerArrived("a")
    let afterFirst = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    let second = machine.innerArrived("b")
    let completion = machine.innerCompleted(id: 0)
    // then
    XCTAssertEqual(first.subscribe?.inner, "a")
    XCTAssertNil(afterFirst.subscribe)
    XCTAssertNil(second.subscribe, "the second inner must wait")
    XCTAssertNotNil(completion.dispose, "the finished inner's subscription is released")
    XCTAssertEqual(completion.subscribe?.inner, "b")
    XCTAssertEqual(completion.subscribe?.id, 1)
    XCTAssertFalse(completion.complete)
  }

  func test_mergeStateMachine_innerArrivingDuringSubscribeWaitsForTheLoop() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: .max))
    _ = machine.innerArrived("a")
    // when
    let reentrant = machine.innerArrived("b")
    let returned = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    // then
    XCTAssertNil(reentrant.subscribe)
    XCTAssertEqual(returned.subscribe?.inner, "b")
  }

  func test_mergeStateMachine_synchronousCompletionDisposesWhenSubscribeReturns() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: .max))
    _ = machine.innerArrived("a")
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
    _ = machine.innerArrived("a")
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
    _ = machine.innerArrived("a")
    let firstSubscription = BooleanDisposable()
    _ = machine.subscribeReturned(id: 0, disposable: firstSubscription)
    // when
    let second = machine.innerArrived("b")
    second.dispose?.dispose()
    let staleCompletion = machine.innerCompleted(id: 0)
    // then
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
    _ = machine.innerArrived("a")
    let dropped = machine.outerElementArrived()
    // then
    XCTAssertTrue(accepted)
    XCTAssertFalse(dropped)
  }

  func test_mergeStateMachine_terminateReturnsLiveSubscriptionsAndStopsStarting() {
    // given
    var machine = Machine(strategy: .concurrent(maxConcurrent: 1))
    _ = machine.innerArrived("a")
    _ = machine.subscribeReturned(id: 0, disposable: Disposables.create())
    _ = machine.innerArrived("b")
    // when
    let live = machine.terminate()
    let afterwards = machine.innerArrived("c")
    // then
    XCTAssertEqual(live.count, 1)
    XCTAssertNil(afterwards.subscribe)
    XCTAssertTrue(machine.waiting.isEmpty)
  }
}
