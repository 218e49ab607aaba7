import Foundation
import Observation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

final class ObservedExplainChangesTests: ResourceTestCase {
  @MainActor
  func test_observedStore_explainChanges_namesTheChangedPropertiesReadThroughTheModel() async {
    // given: a model whose count and log were read
    let store = Store(reducer: storeCounterReducer, state: StoreCounterState())
    let model = ObservedStore(store)
    _ = model.count
    _ = model.log
    var explained: [[PartialKeyPath<StoreCounterState>]] = []
    model.explainChanges { explained.append($0) }
    // when
    store.dispatch(StoreCounterAction.increment)
    store.dispatch(StoreLogAction(text: "a"))
    store.dispatch(StoreCounterAction.add(0))
    // then: one entry per state that changed a read property
    XCTAssertEqual(explained, [[\StoreCounterState.count], [\StoreCounterState.log]])
    // when: stopped
    model.explainChanges(nil)
    store.dispatch(StoreCounterAction.increment)
    // then
    XCTAssertEqual(explained.count, 2)
    XCTAssertEqual(model.count, 2)
  }

  @MainActor
  func test_observedReactor_explainChanges_namesTheChangedProperties() async {
    // given
    let model = ObservedReactor(ProfileReactor())
    _ = model.count
    _ = model.title
    var explained: [[PartialKeyPath<ProfileReactor.State>]] = []
    model.explainChanges { explained.append($0) }
    // when
    model.send(.setTitle("new"))
    model.send(.increase)
    // then
    XCTAssertEqual(explained, [[\ProfileReactor.State.title], [\ProfileReactor.State.count]])
  }
}
