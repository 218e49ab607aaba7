import Foundation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class UpdateExplanationTests: ResourceTestCase {
  /// A store with one observer of each kind: the state, two slices, a select and a row.
  private func observedStore(_ bag: DisposeBag) -> Store<ElementRowsState> {
    let store = elementRowsStore(count: 5)
    store.state.subscribe().disposed(by: bag)
    store.slice(\.counter).subscribe().disposed(by: bag)
    store.slice(\.counter).subscribe().disposed(by: bag)
    store.slice(\.rows).subscribe().disposed(by: bag)
    store.select { $0.rows.count }.subscribe().disposed(by: bag)
    store.slice(\.rows, id: 3).subscribe().disposed(by: bag)
    return store
  }

  func test_explainUpdates_namesTheNotifiedAndTheSkippedObservers() {
    // given
    let bag = DisposeBag()
    let store = observedStore(bag)
    let why = store.explainUpdates()
    // when
    store.dispatch(ElementRowsAction.bump)
    // then
    let bump = why.last
    XCTAssertEqual(bump?.reduction, 1)
    XCTAssertEqual(bump?.action, "ElementRowsAction.bump")
    XCTAssertEqual(bump?.notified.map(\.name), ["state", "slice \\ElementRowsState.counter"])
    XCTAssertEqual(bump?.notified.map(\.subscribers), [1, 2])
    XCTAssertEqual(bump?.notifiedSubscriberCount, 3)
    XCTAssertEqual(
      bump?.skipped.map(\.name),
      ["slice \\ElementRowsState.rows", "select #1", "elements of \\ElementRowsState.rows"])
    // when
    store.dispatch(ElementRowsAction.toggle(3))
    store.dispatch(ElementRowsAction.toggle(4))
    // then
    let explanations = why.explanations
    XCTAssertEqual(explanations.count, 3)
    XCTAssertEqual(
      explanations[1].description,
      "reduction 2 (ElementRowsAction.toggle) notified 3 observers: state (1 subscriber), "
        + "slice \\ElementRowsState.rows (1 subscriber), elements of \\ElementRowsState.rows [3] "
        + "(1 subscriber); skipped 2: slice \\ElementRowsState.counter, select #1")
    XCTAssertEqual(
      explanations[2].notified.map(\.name), ["state", "slice \\ElementRowsState.rows"])
  }

  func test_explainUpdates_isOffByDefaultAndStopsWhenReleasedOrStopped() {
    // given
    let store = elementRowsStore(count: 1)
    XCTAssertTrue(store.core.registry.explainers.isEmpty)
    // when
    var why: UpdateExplainer? = store.explainUpdates()
    let other = store.explainUpdates()
    // then
    XCTAssertEqual(store.core.registry.explainers.count, 2)
    // when
    why = nil
    other.stop()
    other.stop()
    store.dispatch(ElementRowsAction.bump)
    // then
    XCTAssertNil(why)
    XCTAssertTrue(store.core.registry.explainers.isEmpty)
    XCTAssertNil(other.last)
  }

  func test_explainUpdates_keepsAtMostItsCapacityAndCallsItsHandler() {
    // given
    let store = elementRowsStore(count: 1)
    let handled = LockedBox<[UInt64]>([])
    let why = store.explainUpdates(capacity: 2) { explanation in
      handled.withLock { $0.append(explanation.reduction) }
    }
    // when
    for _ in 0..<3 { store.dispatch(ElementRowsAction.bump) }
    // then
    XCTAssertEqual(why.explanations.map(\.reduction), [2, 3])
    XCTAssertEqual(handled.withLock { $0 }, [1, 2, 3])
    XCTAssertEqual(
      why.last?.description, "reduction 3 (ElementRowsAction.bump) notified 0 observers")
    // when
    why.removeAll()
    // then
    XCTAssertTrue(why.explanations.isEmpty)
  }

  func test_explainUpdates_deliversTheSameValuesAsWithout() {
    // given: one store explained, one not
    let bag = DisposeBag()
    var seen: [[Int]] = [[], []]
    let stores = [elementRowsStore(count: 3), elementRowsStore(count: 3)]
    let why = stores[0].explainUpdates()
    for (index, store) in stores.enumerated() {
      store.slice(\.counter).subscribe(onNext: { seen[index].append($0) }).disposed(by: bag)
      store.slice(\.rows, id: 1).subscribe(onNext: { seen[index].append($0?.done == true ? 1 : 0) })
        .disposed(by: bag)
    }
    // when
    for store in stores {
      store.dispatch(ElementRowsAction.bump)
      store.dispatch(ElementRowsAction.toggle(1))
      store.dispatch(ElementRowsAction.remove(1))
    }
    // then
    XCTAssertEqual(seen[0], seen[1])
    XCTAssertEqual(seen[0], [0, 0, 1, 1, 0])
    XCTAssertEqual(why.explanations.count, 3)
  }
}
