import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class StoreSelectionTests: ResourceTestCase {
  func test_slice_emitsCurrentValueFirstThenOnlyChanges() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState(count: 1))
    var counts: [Int] = []
    var logs: [[String]] = []
    let bag = DisposeBag()
    store.slice(\.count).subscribe(onNext: { counts.append($0) }).disposed(by: bag)
    store.slice(\.log).subscribe(onNext: { logs.append($0) }).disposed(by: bag)
    // when
    store.dispatch(StoreLogAction(text: "a"))
    store.dispatch(StoreCounterAction.add(0))
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreLogAction(text: "b"))
    // then
    XCTAssertEqual(counts, [1, 2, 3])
    XCTAssertEqual(logs, [[], ["a"], ["a", "b"]])
  }

  func test_slice_subscribersOfOneKeyPathShareOneEvaluationPerDispatch() {
    // given: a computed key path counts its evaluations
    let evaluations = StoreLockedBox(0)
    let store = Store(reducer: trackedReducer, state: TrackedState(evaluations: evaluations))
    let bag = DisposeBag()
    var received = Array(repeating: [Int](), count: 10)
    for index in 0..<10 {
      // Separate calls of `slice` with equal key paths share the evaluation too.
      store.slice(\.tracked).subscribe(onNext: { received[index].append($0) }).disposed(by: bag)
    }
    XCTAssertEqual(evaluations.current, 1, "Only the first subscriber evaluates the initial value.")
    // when
    for _ in 0..<5 { store.dispatch(StoreCounterAction.increment) }
    // then
    XCTAssertEqual(evaluations.current, 6)
    XCTAssertEqual(received, Array(repeating: [0, 1, 2, 3, 4, 5], count: 10))
  }

  func test_slice_groupWithoutSubscribersIsNoLongerEvaluated() {
    // given
    let evaluations = StoreLockedBox(0)
    let store = Store(reducer: trackedReducer, state: TrackedState(evaluations: evaluations))
    let first = store.slice(\.tracked).subscribe(onNext: { _ in })
    let second = store.slice(\.tracked).subscribe(onNext: { _ in })
    store.dispatch(StoreCounterAction.increment)
    XCTAssertEqual(evaluations.current, 2)
    // when
    first.dispose()
    store.dispatch(StoreCounterAction.increment)
    second.dispose()
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(evaluations.current, 3)
  }

  func test_slice_nestedStoredAndComputedPathsAndClassHops() {
    // given
    let store = Store(
      reducer: Reducer<Nested> { state, _ in
        state.inner.value += 1
        state.reference.value += 10
        state.pair.1 += 100
      }, state: Nested())
    var inner: [Int] = []
    var pair: [Int] = []
    var doubled: [Int] = []
    var reference: [Int] = []
    let bag = DisposeBag()
    store.slice(\.inner.value).subscribe(onNext: { inner.append($0) }).disposed(by: bag)
    store.slice(\.pair.1).subscribe(onNext: { pair.append($0) }).disposed(by: bag)
    store.slice(\.inner.doubled).subscribe(onNext: { doubled.append($0) }).disposed(by: bag)
    store.slice(\.reference.value).subscribe(onNext: { reference.append($0) }).disposed(by: bag)
    // when
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(inner, [0, 1, 2])
    XCTAssertEqual(pair, [0, 100, 200])
    XCTAssertEqual(doubled, [0, 2, 4])
    XCTAssertEqual(reference, [0, 10, 20])
  }

  func test_slice_ofStringsComparesByValue() {
    // given
    let store = Store(
      reducer: Reducer<[String: String]> { state, action in
        if let log = action as? StoreLogAction { state["name"] = log.text }
      }, state: ["name": "a"])
    var names: [String?] = []
    let subscription = store.slice(\.["name"]).subscribe(onNext: { names.append($0) })
    // when
    store.dispatch(StoreLogAction(text: "a"))
    store.dispatch(StoreLogAction(text: "b" + String(repeating: "x", count: 30)))
    store.dispatch(StoreLogAction(text: "b" + String(repeating: "x", count: 30)))
    // then
    XCTAssertEqual(names, ["a", "b" + String(repeating: "x", count: 30)])
    subscription.dispose()
  }

  func test_select_subscribersOfOneObservableShareOneEvaluation() {
    // given
    let evaluations = StoreLockedBox(0)
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let parity = store.select({ (state: StoreCounterState) -> Bool in
      evaluations.withLock { $0 += 1 }
      return state.count % 2 == 0
    })
    var received = Array(repeating: [Bool](), count: 5)
    let bag = DisposeBag()
    for index in 0..<5 {
      parity.subscribe(onNext: { received[index].append($0) }).disposed(by: bag)
    }
    // when
    for _ in 0..<4 { store.dispatch(StoreCounterAction.increment) }
    store.dispatch(StoreCounterAction.add(2))
    // then
    XCTAssertEqual(evaluations.current, 6)
    XCTAssertEqual(received, Array(repeating: [true, false, true, false, true], count: 5))
  }

  func test_select_separateCallsAreIndependentSelections() {
    // given
    let evaluations = StoreLockedBox(0)
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let selector = { (state: StoreCounterState) -> Int in
      evaluations.withLock { $0 += 1 }
      return state.count
    }
    let bag = DisposeBag()
    store.select(selector).subscribe(onNext: { _ in }).disposed(by: bag)
    store.select(selector).subscribe(onNext: { _ in }).disposed(by: bag)
    // when
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(evaluations.current, 4)
  }

  func test_select_isDuplicateDecidesWhatIsAChange() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    var received: [Int] = []
    let subscription = store.select({ $0.count }, isDuplicate: { $0 / 10 == $1 / 10 })
      .subscribe(onNext: { received.append($0) })
    // when
    for amount in [3, 4, 5, 2, 20] { store.dispatch(StoreCounterAction.add(amount)) }
    // then: 3, 7 are in the same decade as 0; 12 starts a new one; 14 does not; 34 does
    XCTAssertEqual(received, [0, 12, 34])
    subscription.dispose()
  }

  func test_select_resubscribingAfterAllLeftStartsFresh() {
    // given
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let count = store.select { $0.count }
    let first = count.subscribe(onNext: { _ in })
    first.dispose()
    store.dispatch(StoreCounterAction.add(4))
    var received: [Int] = []
    // when
    let second = count.subscribe(onNext: { received.append($0) })
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(received, [4, 5])
    second.dispose()
  }

  /// Failed before the fix: a key path given to `select` converted to a closure and made one
  /// unshared selection per call (11 evaluations for two calls and five dispatches).
  @available(*, deprecated)
  func test_select_keyPathSharesOneEvaluationWithSlice() {
    // given: a computed key path counts its evaluations
    let evaluations = StoreLockedBox(0)
    let store = Store(reducer: trackedReducer, state: TrackedState(evaluations: evaluations))
    let bag = DisposeBag()
    var selected: [Int] = []
    var sliced: [Int] = []
    store.select(\.tracked).subscribe(onNext: { selected.append($0) }).disposed(by: bag)
    store.slice(\.tracked).subscribe(onNext: { sliced.append($0) }).disposed(by: bag)
    // when
    for _ in 0..<5 { store.dispatch(StoreCounterAction.increment) }
    // then
    XCTAssertEqual(evaluations.current, 6)
    XCTAssertEqual(selected, [0, 1, 2, 3, 4, 5])
    XCTAssertEqual(sliced, selected)
  }

  func test_slice_tenThousandSubscribersOnlyChangedSlicesAreCalled() {
    // given: 100 key paths × 100 subscribers
    let store = Store(
      reducer: Reducer<Fields> { state, action in
        if case StoreCounterAction.add(let index) = action { state.values[index] += 1 }
      }, state: Fields())
    let calls = StoreLockedBox(0)
    let bag = DisposeBag()
    for field in 0..<100 {
      for _ in 0..<100 {
        store.slice(\.values[field]).subscribe(onNext: { _ in calls.withLock { $0 += 1 } })
          .disposed(by: bag)
      }
    }
    XCTAssertEqual(calls.current, 10_000, "Every subscriber gets the current value.")
    // when
    store.dispatch(StoreCounterAction.add(42))
    store.dispatch(StoreCounterAction.add(7))
    store.dispatch(StoreCounterAction.reset)
    // then
    XCTAssertEqual(calls.current, 10_200)
  }
}

private struct TrackedState: Equatable {
  let evaluations: StoreLockedBox<Int>
  var count = 0

  var tracked: Int {
    evaluations.withLock { $0 += 1 }
    return count
  }

  static func == (lhs: TrackedState, rhs: TrackedState) -> Bool { lhs.count == rhs.count }
}

private var trackedReducer: Reducer<TrackedState> {
  Reducer { state, action in
    if case StoreCounterAction.increment = action { state.count += 1 }
  }
}

private final class Reference {
  var value = 0
}

private struct Nested {
  struct Inner {
    var value = 0
    var doubled: Int { value * 2 }
  }
  var inner = Inner()
  var pair = (0, 0)
  let reference = Reference()
}

private struct Fields {
  var values = Array(repeating: 0, count: 100)
}
