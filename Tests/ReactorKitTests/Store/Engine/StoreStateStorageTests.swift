import Foundation
import ReactorKitStreams
import XCTest

@testable import ReactorKit

/// The reduce-in-place contract of `StoreStateStorage` (see its notes and the Store docs): a
/// dispatch with nobody holding the state copies nothing; a holder pays for one copy at the
/// next change; a reader on another thread sees a whole state, before or after a reduction;
/// the reducer reading `currentState` on its own thread does not wait. Every wait is bounded.
final class StoreStateStorageTests: XCTestCase {
  private struct Toggle: Action { var index: Int }
  private struct Pair: Action { var value: Int }

  private struct Items {
    var values = [Int](repeating: 0, count: 10_000)
  }

  /// The address of the array's elements: unchanged when a reduction changed it in place.
  private func address(_ values: [Int]) -> UInt {
    unsafe values.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
  }

  private func itemsStore() -> Store<Items> {
    Store(
      reducer: Reducer<Items>.on(Toggle.self) { state, action in
        state.values[action.index] += 1
      }, state: Items())
  }

  func testADispatchWithNobodyHoldingTheStateChangesItInPlace() {
    let store = itemsStore()
    let before = address(store.core.storage.turnValue.values)
    for index in 0..<100 { store.dispatch(Toggle(index: index)) }
    XCTAssertEqual(
      address(store.core.storage.turnValue.values), before,
      "a reduction of one element copied the whole array")
    XCTAssertEqual(store.currentState.values.prefix(3), [1, 1, 1])
  }

  func testAHolderPaysForOneCopyAtTheNextChangeAndNothingAfter() {
    let store = itemsStore()
    var held: Items? = store.currentState
    let shared = address(store.core.storage.turnValue.values)
    store.dispatch(Toggle(index: 0))
    let copied = address(store.core.storage.turnValue.values)
    XCTAssertNotEqual(copied, shared, "the holder's state was changed under it")
    XCTAssertEqual(held?.values[0], 0, "the held state changed")
    held = nil
    store.dispatch(Toggle(index: 1))
    store.dispatch(Toggle(index: 2))
    XCTAssertEqual(
      address(store.core.storage.turnValue.values), copied,
      "a change after the holder let go copied again")
    XCTAssertNil(held)
  }

  func testAStateSubscriberThatKeepsNothingCostsNoCopy() {
    let store = itemsStore()
    var seen = 0
    let subscription = store.state.subscribe(onNext: { seen += $0.values[0] })
    let before = address(store.core.storage.turnValue.values)
    store.dispatch(Toggle(index: 0))
    store.dispatch(Toggle(index: 0))
    XCTAssertEqual(address(store.core.storage.turnValue.values), before)
    XCTAssertEqual(seen, 0 + 1 + 2)
    subscription.dispose()
  }

  /// A reducer that writes `first`, yields, then `second`: a reader that copied during the
  /// reduction would see them differ.
  func testReadersOnOtherThreadsNeverSeeAStateBeingReduced() {
    struct State { var first = 0, second = 0 }
    let store = Store(
      reducer: Reducer<State>.on(Pair.self) { state, action in
        state.first = action.value
        sched_yield()
        state.second = action.value
      }, state: State())
    let deadline = Date().addingTimeInterval(10)
    let torn = AtomicBox<Int>(0)
    let reads = AtomicBox<Int>(0)
    let done = AtomicBox<Bool>(false)
    let readersFinished = DispatchGroup()
    for _ in 0..<2 {
      readersFinished.enter()
      // Threads hold the store weakly, so it is freed when the test returns.
      Thread.detachNewThread { [weak store] in
        while !done.load(ordering: .acquiring) && Date() < deadline, let store {
          let state = store.currentState
          if state.first != state.second { torn.wrappingAdd(1, ordering: .relaxed) }
          reads.wrappingAdd(1, ordering: .relaxed)
        }
        readersFinished.leave()
      }
    }
    for value in 1...2_000 where Date() < deadline {
      store.dispatch(Pair(value: value))
    }
    done.store(true, ordering: .releasing)
    XCTAssertEqual(
      readersFinished.wait(timeout: .now() + 10), .success, "a reader did not finish in time")
    XCTAssertEqual(torn.load(ordering: .relaxed), 0, "a reader saw a state being reduced")
    XCTAssertGreaterThan(reads.load(ordering: .relaxed), 0)
    XCTAssertEqual(store.currentState.first, store.currentState.second)
  }

  /// A reader that arrives while a long reduction runs gets a whole state (this engine waits
  /// for the reduction to end and returns the result), and is never left waiting.
  func testAReaderDuringAReductionGetsAWholeState() {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let store = Store(
      reducer: Reducer<Int>.on(Pair.self) { state, action in
        entered.signal()
        _ = release.wait(timeout: .now() + 10)
        state = action.value
      }, state: 0)
    let dispatched = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [weak store] in
      store?.dispatch(Pair(value: 7))
      dispatched.signal()
    }
    XCTAssertEqual(entered.wait(timeout: .now() + 10), .success, "the reducer never ran")
    let read = DispatchSemaphore(value: 0)
    let seen = AtomicBox<Int>(-1)
    Thread.detachNewThread { [weak store] in
      seen.store(store?.currentState ?? -1, ordering: .releasing)
      read.signal()
    }
    _ = read.wait(timeout: .now() + 0.05)
    release.signal()
    XCTAssertEqual(read.wait(timeout: .now() + 10), .success, "the reader was never woken")
    XCTAssertTrue([0, 7].contains(seen.load(ordering: .acquiring)), "a torn read")
    XCTAssertEqual(dispatched.wait(timeout: .now() + 10), .success)
  }

  /// The reducer (or code it calls) reading `currentState` gets the state as changed so far,
  /// without waiting for its own reduction.
  func testTheReducerReadingCurrentStateDoesNotWaitForItself() {
    final class Box: @unchecked Sendable { var store: Store<Int>? }
    let box = Box()
    let seenInside = AtomicBox<Int>(-1)
    let store = Store(
      reducer: Reducer<Int>.on(Pair.self) { state, action in
        state = action.value
        seenInside.store(box.store?.currentState ?? -2, ordering: .releasing)
      }, state: 0)
    box.store = store
    let finished = DispatchSemaphore(value: 0)
    Thread.detachNewThread { [weak store] in
      store?.dispatch(Pair(value: 3))
      finished.signal()
    }
    XCTAssertEqual(
      finished.wait(timeout: .now() + 10), .success, "the reducer waited for its own reduction")
    XCTAssertEqual(seenInside.load(ordering: .acquiring), 3)
    box.store = nil
  }

  /// Middleware reads the state through `getState` without the lock; what it reads before
  /// `next` is the state before the reduction and stays so after it.
  func testGetStateBeforeTheReductionKeepsTheStateBefore() {
    let kept = LockedBox<[Items]>([])
    let store = Store(
      reducer: Reducer<Items>.on(Toggle.self) { state, action in
        state.values[action.index] += 1
      }, state: Items(),
      middleware: [
        Middleware.redux { getState, _ in
          { next in
            { action in
              kept.withLock { $0.append(getState()) }
              next(action)
              kept.withLock { $0.append(getState()) }
            }
          }
        }
      ])
    store.dispatch(Toggle(index: 4))
    XCTAssertEqual(kept.withLock { $0.map { $0.values[4] } }, [0, 1])
  }
}
