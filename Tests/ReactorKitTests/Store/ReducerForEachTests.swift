import Foundation
import ReactorKit
import ReactorKitTesting
import XCTest

final class ReducerForEachTests: ResourceTestCase {
  func test_forEach_appliesAnElementActionToTheElementWithThatIdentifierOnly() {
    // given
    let reducer = rowReducer.forEach(\RowsState.rows)
    var state = RowsState(rows: [Row(id: 1), Row(id: 2), Row(id: 3)])
    // when
    reducer.reduce(&state, ElementAction(id: 2, action: RowAction.toggle))
    reducer.reduce(&state, ElementAction(id: 3, action: RowAction.rename("c")))
    // then
    XCTAssertEqual(
      state.rows,
      [Row(id: 1), Row(id: 2, isOn: true), Row(id: 3, title: "c")])
  }

  func test_forEach_ignoresOtherActionsUnknownIdentifiersAndOtherIdentifierTypes() {
    // given
    let reducer = rowReducer.forEach(\RowsState.rows)
    let initial = RowsState(rows: [Row(id: 1)])
    var state = initial
    // when
    reducer.reduce(&state, RowAction.toggle)
    reducer.reduce(&state, ElementAction(id: 9, action: RowAction.toggle))
    reducer.reduce(&state, ElementAction(id: "1", action: RowAction.toggle))
    // then
    XCTAssertEqual(state, initial)
  }

  func test_forEach_overADictionaryKeyedByIdentifier() {
    // given
    let reducer = rowReducer.forEach(\RowsState.byID)
    var state = RowsState(byID: [1: Row(id: 1), 2: Row(id: 2)])
    // when
    reducer.reduce(&state, ElementAction(id: 1, action: RowAction.toggle))
    reducer.reduce(&state, ElementAction(id: 5, action: RowAction.toggle))
    // then
    XCTAssertEqual(state.byID, [1: Row(id: 1, isOn: true), 2: Row(id: 2)])
  }

  func test_forEach_overAnIdentifiedList_findsTheElementByIDAsTheListMoves() {
    // given
    struct ListState: Equatable { var rows: IdentifiedList<Row> }
    let reducer = rowReducer.forEach(\ListState.rows)
    var state = ListState(rows: IdentifiedList(uniqueElements: (0..<1_000).map { Row(id: $0) }))
    let kept = state
    // when: the list moves around row 500, then element actions arrive for it and for a
    // removed row
    state.rows.insert(Row(id: -1), at: 0)
    state.rows.remove(id: 10)
    reducer.reduce(&state, ElementAction(id: 500, action: RowAction.toggle))
    reducer.reduce(&state, ElementAction(id: 10, action: RowAction.toggle))
    reducer.reduce(&state, RowAction.toggle)
    // then
    XCTAssertEqual(state.rows[id: 500], Row(id: 500, isOn: true))
    XCTAssertEqual(state.rows.index(id: 500), 500)
    XCTAssertNil(state.rows[id: 10])
    XCTAssertEqual(state.rows.filter(\.isOn).map(\.id), [500])
    XCTAssertEqual(kept.rows[id: 500], Row(id: 500), "the kept version changed")
  }

  func test_forEach_inAStoreWithTheListReducer() {
    // given
    let store = TestStore(
      reducer: .combine {
        rowReducer.forEach(\RowsState.rows)
        Reducer<RowsState>.on(RowListAction.self) { state, action in
          if case .add(let id) = action { state.rows.append(Row(id: id)) }
        }
      }, state: RowsState())
    // when, then
    store.send(RowListAction.add(4)) { $0.rows = [Row(id: 4)] }
    store.send(ElementAction(id: 4, action: RowAction.toggle)) { $0.rows[0].isOn = true }
    store.finish()
  }

  func test_elementAction_isEquatableAndCodableWhenItsPartsAre() throws {
    // given
    let action = ElementAction(id: 3, action: RowAction.rename("x"))
    // when
    let decoded = try JSONDecoder().decode(
      ElementAction<Int, RowAction>.self, from: JSONEncoder().encode(action))
    // then
    XCTAssertEqual(decoded, action)
    XCTAssertNotEqual(decoded, ElementAction(id: 4, action: RowAction.rename("x")))
  }
}

// MARK: - Fakes

private struct Row: Identifiable, Equatable {
  let id: Int
  var isOn = false
  var title = ""
}

private enum RowAction: Action, Equatable, Codable {
  case toggle
  case rename(String)
}

private enum RowListAction: Action { case add(Int) }

private struct RowsState: Equatable {
  var rows: [Row] = []
  var byID: [Int: Row] = [:]
}

private let rowReducer = Reducer<Row>.on(RowAction.self) { row, action in
  switch action {
  case .toggle: row.isOn.toggle()
  case .rename(let title): row.title = title
  }
}
