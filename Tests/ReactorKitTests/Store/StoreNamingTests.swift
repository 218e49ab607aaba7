import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

/// The store's names from the guides' naming table: `dispatch` of any typed action stream,
/// and the non-throwing asynchronous sequences.
final class StoreNamingTests: ResourceTestCase {
  func test_dispatch_acceptsAStreamOfOneActionType() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let subject = PublishSubject<StoreCounterAction>()
    // when
    let subscription = store.dispatch(subject)
    subject.onNext(.increment)
    subject.onNext(.add(2))
    subscription.dispose()
    subject.onNext(.increment)
    // then
    XCTAssertEqual(store.currentState.count, 3)
  }

  func test_dispatch_ofATypedObservableAndOfAnyActionStillCompileSideBySide() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let typed: Observable<StoreCounterAction> = .of(.increment, .increment)
    let mixed: Observable<any Action> = .of(StoreCounterAction.increment, StoreLogAction(text: "a"))
    // when
    store.dispatch(typed)
    store.dispatch(mixed)
    store.dispatch(.just(StoreCounterAction.add(10)))
    // then
    XCTAssertEqual(store.currentState, StoreCounterState(count: 13, log: ["a"]))
  }

  func test_dispatch_ofATypedStreamDropsElementsAfterTheStoreIsFreed() {
    // given
    var store: Store<StoreCounterState>? = Store(
      reducer: storeCounterReducer, state: StoreCounterState())
    weak var weakStore: Store<StoreCounterState>?
    weakStore = store
    let subject = PublishSubject<StoreCounterAction>()
    let subscription = store!.dispatch(subject)
    // when
    store = nil
    subject.onNext(.increment)
    // then
    XCTAssertNil(weakStore, "the subscription does not hold the store")
    subscription.dispose()
  }

  func test_values_isANonThrowingSequenceOfTheSlice() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var iterator = store.values(\.count).makeAsyncIterator()
    // when
    store.dispatch(StoreLogAction(text: "unchanged count"))
    store.dispatch(StoreCounterAction.add(5))
    // then: no `try`; an unchanged slice is not repeated
    let first = await iterator.next()
    let second = await iterator.next()
    XCTAssertEqual([first, second], [0, 5])
  }

  func test_values_endsWhenTheStoreIsFreed() async {
    // given
    var store: Store<StoreCounterState>? = Store(
      reducer: storeCounterReducer, state: StoreCounterState())
    let values = store!.values(\.count)
    // when
    store = nil
    // then
    var received: [Int] = []
    for await value in values { received.append(value) }
    XCTAssertEqual(received, [0])
  }

  func test_values_cancellingTheTaskEndsTheSubscription() async {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let started = AsyncStream<Void>.makeStream()
    let task = Task {
      var count = 0
      for await _ in store.values(\.count) {
        count += 1
        started.continuation.yield()
      }
      return count
    }
    var iterator = started.stream.makeAsyncIterator()
    await iterator.next()
    // when
    task.cancel()
    let count = await task.value
    // then
    XCTAssertEqual(count, 1)
  }
}
