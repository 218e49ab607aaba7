import Foundation
import Observation
import ReactorKit
import ReactorKitTesting
import XCTest

final class ObservedStoreScopeTests: ResourceTestCase {
  @MainActor
  func test_observed_ofAScopeReadsTheChildAndDispatchesToTheRoot() async {
    // given
    let store = Store(reducer: parentReducer, state: Parent())
    let model = store.scope(\.child).observed()
    let countModel = store.scope(\.child).observed(\.count)
    // when
    model.dispatch(StoreCounterAction.add(4))
    // then
    XCTAssertEqual(model.count, 4)
    XCTAssertEqual(countModel.state, 4)
    XCTAssertEqual(store.currentState.child.count, 4)
  }

  @MainActor
  func test_observed_ofAScopeTracksOnlyTheChildProperty() async {
    // given
    let store = Store(reducer: parentReducer, state: Parent())
    let model = store.scope(\.child).observed(\.count)
    let changes = trackChanges { _ = model.state }
    // when
    store.dispatch(StoreLogAction(text: "elsewhere"))
    let afterOtherChange = changes.count
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(afterOtherChange, 0)
    XCTAssertEqual(changes.count, 1)
    XCTAssertEqual(model.state, 1)
  }
}

private struct Parent: Equatable {
  var child = StoreCounterState()
  var notes: [String] = []
}

private let parentReducer = Reducer<Parent>.combine {
  storeCounterReducer.lift(\.child)
  Reducer<[String]>.on(StoreLogAction.self) { notes, action in notes.append(action.text) }
    .lift(\.notes)
}
