import Foundation
import Observation
import ReactorKitStreams
import ReactorKitTesting
import XCTest

@testable import ReactorKit

/// A row of a large list.
struct ElementRow: Identifiable, Equatable, Sendable {
  var id: Int
  var title: String
  var done = false
}

struct ElementRowsState: Equatable {
  var rows: IdentifiedList<ElementRow> = []
  var counter = 0
  var archive = ElementArchive()
}

struct ElementArchive: Equatable {
  var rows: IdentifiedList<ElementRow> = []
}

enum ElementRowsAction: Action {
  case toggle(Int)
  case rename(Int, String)
  case insertFront(ElementRow)
  case remove(Int)
  case reverse
  case bump
  case archive(ElementRow)
}

var elementRowsReducer: Reducer<ElementRowsState> {
  Reducer { state, action in
    switch action as? ElementRowsAction {
    case .toggle(let id)?: state.rows[id: id]?.done.toggle()
    case .rename(let id, let title)?: state.rows[id: id]?.title = title
    case .insertFront(let row)?: state.rows.insert(row, at: 0)
    case .remove(let id)?: state.rows.remove(id: id)
    case .reverse?: state.rows = IdentifiedList(uniqueElements: state.rows.reversed())
    case .bump?: state.counter += 1
    case .archive(let row)?: state.archive.rows.append(row)
    case nil: break
    }
  }
}

func elementRowsStore(count: Int) -> Store<ElementRowsState> {
  let rows = IdentifiedList(
    uniqueElements: (0..<count).map { ElementRow(id: $0, title: "row \($0)") })
  return Store(reducer: elementRowsReducer, state: ElementRowsState(rows: rows))
}

final class StoreElementTests: ResourceTestCase {
  // MARK: - slice(_:id:)

  func test_sliceByID_emitsTheElementThenOnlyItsOwnChanges() {
    // given
    let store = elementRowsStore(count: 100)
    let bag = DisposeBag()
    var seen: [ElementRow?] = []
    store.slice(\.rows, id: 7).subscribe(onNext: { seen.append($0) }).disposed(by: bag)
    // when
    store.dispatch(ElementRowsAction.bump)
    store.dispatch(ElementRowsAction.toggle(8))
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 500, title: "new")))
    store.dispatch(ElementRowsAction.toggle(7))
    store.dispatch(ElementRowsAction.rename(7, "seven"))
    store.dispatch(ElementRowsAction.remove(7))
    store.dispatch(ElementRowsAction.toggle(9))
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 7, title: "back")))
    // then
    XCTAssertEqual(
      seen,
      [
        ElementRow(id: 7, title: "row 7"), ElementRow(id: 7, title: "row 7", done: true),
        ElementRow(id: 7, title: "seven", done: true), nil, ElementRow(id: 7, title: "back"),
      ])
  }

  func test_sliceByID_ofAMissingElement_startsWithNil() {
    // given
    let store = elementRowsStore(count: 3)
    let bag = DisposeBag()
    var seen: [ElementRow?] = []
    // when
    store.slice(\.rows, id: 42).subscribe(onNext: { seen.append($0) }).disposed(by: bag)
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 42, title: "now")))
    // then
    XCTAssertEqual(seen, [nil, ElementRow(id: 42, title: "now")])
  }

  func test_sliceByID_manyRowsShareOneGroupAndAnUnrelatedDispatchReachesNone() {
    // given: 1,000 row subscribers
    let store = elementRowsStore(count: 1_000)
    let bag = DisposeBag()
    let deliveries = LockedBox(0)
    for id in 0..<1_000 {
      store.slice(\.rows, id: id).skip(1).subscribe(onNext: { _ in
        deliveries.withLock { $0 += 1 }
      }).disposed(by: bag)
    }
    // then: one selection group for all of them
    XCTAssertEqual(store.core.registry.slots.count, 1)
    // when
    store.dispatch(ElementRowsAction.bump)
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 5_000, title: "front")))
    store.dispatch(ElementRowsAction.remove(5_000))
    // then: nobody's element changed
    XCTAssertEqual(deliveries.withLock { $0 }, 0)
    // when
    store.dispatch(ElementRowsAction.toggle(999))
    // then
    XCTAssertEqual(deliveries.withLock { $0 }, 1)
  }

  func test_sliceByID_aChangeOfManyElementsIsReportedPerSubscribedID() {
    // given: two subscribers; reversing 300 rows touches every leaf
    let store = elementRowsStore(count: 300)
    let bag = DisposeBag()
    var first: [ElementRow?] = []
    var last: [ElementRow?] = []
    store.slice(\.rows, id: 0).subscribe(onNext: { first.append($0) }).disposed(by: bag)
    store.slice(\.rows, id: 299).subscribe(onNext: { last.append($0) }).disposed(by: bag)
    // when: every element moves, none changes
    store.dispatch(ElementRowsAction.reverse)
    store.dispatch(ElementRowsAction.toggle(299))
    // then
    XCTAssertEqual(first.count, 1)
    XCTAssertEqual(last.map { $0?.done }, [false, true])
  }

  func test_sliceByID_disposingTheLastSubscriberRemovesTheGroup() {
    // given
    let store = elementRowsStore(count: 10)
    let first = store.slice(\.rows, id: 1).subscribe()
    let second = store.slice(\.rows, id: 2).subscribe()
    let third = store.slice(\.rows, id: 2).subscribe()
    XCTAssertEqual(store.core.registry.slots.count, 1)
    // when
    first.dispose()
    second.dispose()
    // then
    XCTAssertEqual(store.core.registry.slots.count, 1)
    // when
    third.dispose()
    // then
    XCTAssertEqual(store.core.registry.slots.count, 0)
    XCTAssertTrue(store.core.registry.groups.isEmpty)
  }

  func test_sliceByID_aSubscriberThatDisposesItselfWhileToldStopsAtOnce() {
    // given
    let store = elementRowsStore(count: 10)
    let subscription = SingleAssignmentDisposable()
    var seen: [Bool?] = []
    subscription.setDisposable(
      store.slice(\.rows, id: 3).subscribe(onNext: { row in
        seen.append(row?.done)
        if row?.done == true { subscription.dispose() }
      }))
    let other = store.slice(\.rows, id: 3).subscribe()
    // when
    store.dispatch(ElementRowsAction.toggle(3))
    store.dispatch(ElementRowsAction.toggle(3))
    // then
    XCTAssertEqual(seen, [false, true])
    other.dispose()
  }

  func test_sliceByID_ofANestedList_followsThatList() {
    // given
    let store = elementRowsStore(count: 2)
    let bag = DisposeBag()
    var seen: [ElementRow?] = []
    store.slice(\.archive.rows, id: 0).subscribe(onNext: { seen.append($0) }).disposed(by: bag)
    // when
    store.dispatch(ElementRowsAction.toggle(0))
    store.dispatch(ElementRowsAction.archive(ElementRow(id: 0, title: "archived")))
    // then
    XCTAssertEqual(seen, [nil, ElementRow(id: 0, title: "archived")])
  }

  func test_sliceByID_completesWhenTheStoreIsFreed() {
    // given
    var store: Store<ElementRowsState>? = elementRowsStore(count: 2)
    var completed = false
    let subscription = store!.slice(\.rows, id: 1).subscribe(onCompleted: { completed = true })
    // when
    store = nil
    // then
    XCTAssertTrue(completed)
    subscription.dispose()
  }

  // MARK: - scope(_:id:)

  func test_scopeByID_parentRemovingTheElement_keepsTheLastValueAndReportsStale() {
    // given: an observed scope on row 1 (with `scope(\.rows[1])` the parent's dispatch
    // below stopped the program: "Index out of range")
    let store = elementRowsStore(count: 3)
    let bag = DisposeBag()
    guard let row = store.scope(\.rows, id: 1) else { return XCTFail("row 1 exists") }
    var titles: [String] = []
    row.slice(\.title).subscribe(onNext: { titles.append($0) }).disposed(by: bag)
    var states: [ElementRow] = []
    row.state.subscribe(onNext: { states.append($0) }).disposed(by: bag)
    XCTAssertFalse(row.isStale)
    // when
    store.dispatch(ElementRowsAction.rename(1, "one"))
    store.dispatch(ElementRowsAction.remove(1))
    store.dispatch(ElementRowsAction.toggle(2))
    // then: the parent goes on; the scope keeps its element's last value
    XCTAssertEqual(store.currentState.rows.count, 2)
    XCTAssertTrue(row.isStale)
    XCTAssertEqual(row.currentState, ElementRow(id: 1, title: "one"))
    XCTAssertEqual(titles, ["row 1", "one"])
    XCTAssertEqual(states.map(\.title), ["row 1", "one"])
    // when: a scope of the stale handle, made afterwards, starts with the last value
    var late: [String] = []
    row.slice(\.title).subscribe(onNext: { late.append($0) }).disposed(by: bag)
    // when: the element comes back
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 1, title: "again")))
    // then
    XCTAssertFalse(row.isStale)
    XCTAssertEqual(row.currentState.title, "again")
    XCTAssertEqual(titles, ["row 1", "one", "again"])
    XCTAssertEqual(late, ["one", "again"])
  }

  func test_scopeByID_followsTheElementAsItMovesAndDispatchesToTheStore() {
    // given
    let store = elementRowsStore(count: 5)
    guard let row = store.scope(\.rows, id: 4) else { return XCTFail("row 4 exists") }
    // when
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 9, title: "nine")))
    row.dispatch(ElementRowsAction.toggle(4))
    // then
    XCTAssertEqual(store.currentState.rows.index(id: 4), 5)
    XCTAssertTrue(row.currentState.done)
    XCTAssertEqual(row.currentState, store.currentState.rows[id: 4])
  }

  func test_scopeByID_ofAMissingElementIsNil() {
    let store = elementRowsStore(count: 2)
    XCTAssertNil(store.scope(\.rows, id: 99))
    XCTAssertNil(store.scope(\.archive).scope(\.rows, id: 0))
  }

  func test_scopeByID_withinAScope_andSliceByIDOfAScope() {
    // given
    let store = elementRowsStore(count: 1)
    store.dispatch(ElementRowsAction.archive(ElementRow(id: 5, title: "kept")))
    let archive = store.scope(\.archive)
    guard let row = archive.scope(\.rows, id: 5) else { return XCTFail("row 5 is archived") }
    let bag = DisposeBag()
    var seen: [ElementRow?] = []
    archive.slice(\.rows, id: 5).subscribe(onNext: { seen.append($0) }).disposed(by: bag)
    // then
    XCTAssertEqual(row.currentState.title, "kept")
    XCTAssertEqual(seen, [ElementRow(id: 5, title: "kept")])
    XCTAssertFalse(row.isStale)
  }

  func test_scopeByID_releasingTheHandleEndsItsSubscription() {
    // given
    let store = elementRowsStore(count: 2)
    var row = store.scope(\.rows, id: 0)
    XCTAssertEqual(store.core.registry.slots.count, 1)
    // when
    row = nil
    // then
    XCTAssertNil(row)
    XCTAssertEqual(store.core.registry.slots.count, 0)
  }

  // MARK: - observed(_:id:)

  @MainActor
  func test_observedByID_rowModelsAreToldOnlyAboutTheirOwnElement() async {
    // given: three row models
    let store = elementRowsStore(count: 3)
    let models = (0..<3).map { store.observed(\.rows, id: $0)! }
    let changes = models.map { model in trackChanges { _ = model.done } }
    // when: a change elsewhere, an insert at the front, then row 2
    store.dispatch(ElementRowsAction.bump)
    store.dispatch(ElementRowsAction.insertFront(ElementRow(id: 10, title: "front")))
    store.dispatch(ElementRowsAction.toggle(2))
    // then
    XCTAssertEqual(changes.map(\.count), [0, 0, 1])
    XCTAssertTrue(models[2].done)
  }

  @MainActor
  func test_observedByID_keepsTheLastValueWhenItsElementIsRemoved() async {
    // given
    let store = elementRowsStore(count: 3)
    guard let model = store.observed(\.rows, id: 1) else { return XCTFail("row 1 exists") }
    XCTAssertNil(store.observed(\.rows, id: 7))
    // when
    store.dispatch(ElementRowsAction.rename(1, "last"))
    store.dispatch(ElementRowsAction.remove(1))
    store.dispatch(ElementRowsAction.bump)
    // then
    XCTAssertEqual(model.title, "last")
    XCTAssertEqual(store.scope(\.archive).observed(\.rows, id: 1)?.title, nil)
  }
}
