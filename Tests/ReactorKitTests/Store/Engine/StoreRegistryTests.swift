import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// `StoreRegistry` and `SelectionGroup` (issue 33, item 7): how subscriptions are registered,
/// grouped and removed, how a group evaluates once per reduction and notifies only on a
/// change, and what a subscriber that subscribes or disposes during delivery sees.
final class StoreRegistryTests: ResourceTestCase {
  private struct Pair: Equatable {
    var left = 0
    var right = 0
  }

  private enum Change: Action {
    case left(Int)
    case right(Int)
  }

  private func pairStore() -> Store<Pair> {
    Store(
      reducer: Reducer<Pair>.on(Change.self) { state, action in
        switch action {
        case .left(let value): state.left = value
        case .right(let value): state.right = value
        }
      }, state: Pair())
  }

  /// The registry's counts, read while the store is idle, with its lock held.
  private func counts(_ store: Store<Pair>) -> (
    groups: Int, slots: Int, state: Int, actions: Int, reductions: Int
  ) {
    store.core.lock.lock()
    defer { store.core.lock.unlock() }
    let registry = store.core.registry
    return (
      registry.groups.count, registry.slots.count, registry.stateSubscriptions.count,
      registry.actionSubscriptions.count, registry.reductionSubscriptions.count
    )
  }

  func test_slicesOfOneKeyPath_shareOneGroup_andAnotherKeyPathHasItsOwn() {
    // given
    let store = pairStore()
    // when
    let first = store.slice(\.left).subscribe(onNext: { _ in })
    let second = store.slice(\.left).subscribe(onNext: { _ in })
    let other = store.slice(\.right).subscribe(onNext: { _ in })
    // then
    XCTAssertEqual(counts(store).groups, 2)
    XCTAssertEqual(counts(store).slots, 2)
    first.dispose()
    second.dispose()
    other.dispose()
  }

  func test_aGroup_evaluatesOncePerReduction_whateverItsSubscriberCount() {
    // given: one `select` observable (one group), three subscribers
    let store = pairStore()
    let evaluations = Counter()
    let doubled = store.select { (pair: Pair) -> Int in
      evaluations.increment()
      return pair.left * 2
    }
    let subscriptions = (0..<3).map { _ in doubled.subscribe(onNext: { _ in }) }
    let afterSubscribing = evaluations.value
    // when
    for value in 1...10 { store.dispatch(Change.left(value)) }
    // then
    XCTAssertEqual(evaluations.value - afterSubscribing, 10)
    XCTAssertEqual(counts(store).groups, 1)
    for subscription in subscriptions { subscription.dispose() }
  }

  func test_subscribersAreNotified_onlyWhenTheirValueChanges() {
    // given
    let store = pairStore()
    var left: [Int] = []
    var right: [Int] = []
    let a = store.slice(\.left).subscribe(onNext: { left.append($0) })
    let b = store.slice(\.right).subscribe(onNext: { right.append($0) })
    // when
    store.dispatch(Change.left(1))
    store.dispatch(Change.left(1))  // no change
    store.dispatch(Change.right(5))
    store.dispatch(Change.left(2))
    // then: the current value first, then each change of its own field
    XCTAssertEqual(left, [0, 1, 2])
    XCTAssertEqual(right, [0, 5])
    a.dispose()
    b.dispose()
  }

  func test_theLastSubscriberLeaving_removesTheGroupAndItsSlot() {
    // given
    let store = pairStore()
    let first = store.slice(\.left).subscribe(onNext: { _ in })
    let second = store.slice(\.left).subscribe(onNext: { _ in })
    // when
    first.dispose()
    // then
    XCTAssertEqual(counts(store).groups, 1, "a subscriber is left")
    second.dispose()
    XCTAssertEqual(counts(store).groups, 0)
    XCTAssertEqual(counts(store).slots, 0)
    // and a new subscriber starts a new group from the current state
    store.dispatch(Change.left(7))
    var seen: [Int] = []
    let again = store.slice(\.left).subscribe(onNext: { seen.append($0) })
    XCTAssertEqual(seen, [7])
    again.dispose()
  }

  func test_stateActionAndReductionSubscriptions_areRegisteredAndRemoved() {
    // given
    let store = pairStore()
    // when
    let state = store.state.subscribe(onNext: { _ in })
    let actions = store.actions.subscribe(onNext: { _ in })
    let reductions = store.observeReductions { _ in }
    // then
    XCTAssertEqual(counts(store).state, 1)
    XCTAssertEqual(counts(store).actions, 1)
    XCTAssertEqual(counts(store).reductions, 1)
    state.dispose()
    actions.dispose()
    reductions.dispose()
    XCTAssertEqual(counts(store).state, 0)
    XCTAssertEqual(counts(store).actions, 0)
    XCTAssertEqual(counts(store).reductions, 0)
  }

  func test_freeingTheStore_completesTheSubscriptionsOfEveryList() {
    // given
    var store: Store<Pair>? = pairStore()
    var completed: [String] = []
    let subscriptions = [
      store!.slice(\.left).subscribe(onCompleted: { completed.append("slice") }),
      store!.select { $0.right }.subscribe(onCompleted: { completed.append("select") }),
      store!.state.subscribe(onCompleted: { completed.append("state") }),
      store!.actions.subscribe(onCompleted: { completed.append("actions") }),
    ]
    // when
    store = nil
    // then
    XCTAssertEqual(completed.sorted(), ["actions", "select", "slice", "state"])
    for subscription in subscriptions { subscription.dispose() }
  }

  func test_subscribingDuringDelivery_joinsWithTheCurrentValue_once() {
    // given
    let store = pairStore()
    var late: [Int] = []
    var lateSubscription: Disposable?
    let first = store.slice(\.left).subscribe(onNext: { value in
      if value == 1 && lateSubscription == nil {
        lateSubscription = store.slice(\.left).subscribe(onNext: { late.append($0) })
      }
    })
    // when
    store.dispatch(Change.left(1))
    store.dispatch(Change.left(2))
    // then: the current value when it joined, then the next change, never one twice
    XCTAssertEqual(late, [1, 2])
    first.dispose()
    lateSubscription?.dispose()
  }

  func test_disposingAnotherSubscriberDuringDelivery_stopsItsDeliveries() {
    // given
    let store = pairStore()
    var second: [Int] = []
    var secondSubscription: Disposable?
    let first = store.slice(\.left).subscribe(onNext: { value in
      if value == 1 { secondSubscription?.dispose() }
    })
    secondSubscription = store.slice(\.left).subscribe(onNext: { second.append($0) })
    // when
    store.dispatch(Change.left(1))
    store.dispatch(Change.left(2))
    // then: it saw the first value only
    XCTAssertEqual(second, [0])
    first.dispose()
    XCTAssertEqual(counts(store).groups, 0)
  }

  func test_dispatchingFromASubscriber_isReducedAfterTheDelivery_andEveryoneSeesBoth() {
    // given
    let store = pairStore()
    var seen: [Int] = []
    let echo = store.slice(\.left).subscribe(onNext: { value in
      if value == 1 { store.dispatch(Change.left(10)) }
    })
    let watcher = store.slice(\.left).subscribe(onNext: { seen.append($0) })
    // when
    store.dispatch(Change.left(1))
    // then
    XCTAssertEqual(seen, [0, 1, 10])
    XCTAssertEqual(store.currentState.left, 10)
    echo.dispose()
    watcher.dispose()
  }

  func test_threads_subscribeAndDisposeWhileDispatching_leaveAnEmptyRegistry() {
    // given
    let store = pairStore()
    let group = DispatchGroup()
    // when: 4 threads subscribe and dispose slices while one dispatches
    DispatchQueue.global().async(group: group) {
      for value in 0..<2_000 { store.dispatch(Change.left(value)) }
    }
    for thread in 0..<4 {
      DispatchQueue.global().async(group: group) {
        for _ in 0..<250 {
          let path: KeyPath<Pair, Int> = thread.isMultiple(of: 2) ? \.left : \.right
          store.slice(path).subscribe(onNext: { _ in }).dispose()
        }
      }
    }
    // then
    XCTAssertEqual(group.wait(timeout: .now() + 60), .success, "a thread did not finish")
    XCTAssertEqual(counts(store).groups, 0)
    XCTAssertEqual(counts(store).slots, 0)
    XCTAssertEqual(store.currentState.left, 1_999)
  }
}

/// A count several closures bump.
private final class Counter: @unchecked Sendable {
  // Safety: `count` is guarded by `lock`.
  private let lock = NSLock()
  private var count = 0

  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
