import Foundation
import Observation
import ReactorKit

// Many observers (issue 29, item 6): a SwiftUI list gives each row a model. Each workload
// keeps `rows` row models of a store whose state holds 1,000 items, each model's `title` read
// under `withObservationTracking` (as SwiftUI's body would), and one op dispatches
// `counter += 1`, which changes nothing the rows watch. The cost should not grow with `rows`.

/// Counts one row: the counter the op changes, and the list the rows watch.
struct RowsArrayState: Equatable, Sendable {
  var items: [ListItem]
  var counter = 0
}

struct RowsListState: Equatable, Sendable {
  var items: IdentifiedList<ListItem>
  var counter = 0
}

/// `counter += 1`.
struct RowsBump: Action {}

/// The items of a rows workload.
func rowItems() -> [ListItem] {
  (0..<1_000).map { ListItem(id: $0, title: "Item \($0)", isDone: false) }
}

/// `observed_rows_index_<rows>`: row models on `store.observed(\.items[i])` of an array;
/// `observed_rows_id_<rows>`: row models on `store.observed(\.items, id: i)` of an
/// `IdentifiedList`. Baseline: the counter incremented in place under a lock.
func rowWorkloads() -> [Workload] {
  [0, 100, 1_000].flatMap { rows in
    [
      rowWorkload(
        name: "observed_rows_index_\(rows)", rows: rows,
        store: {
          Store(
            reducer: Reducer<RowsArrayState>.on(RowsBump.self) { state, _ in state.counter += 1 },
            state: RowsArrayState(items: rowItems()))
        }, model: { store, row in store.observed(\.items[row]) }, counter: \.counter),
      rowWorkload(
        name: "observed_rows_id_\(rows)", rows: rows,
        store: {
          Store(
            reducer: Reducer<RowsListState>.on(RowsBump.self) { state, _ in state.counter += 1 },
            state: RowsListState(items: IdentifiedList(uniqueElements: rowItems())))
        }, model: { store, row in store.observed(\.items, id: row)! }, counter: \.counter),
    ]
  }
}

/// A rows workload: a store from `store`, `rows` models from `model`, each tracked as a row
/// view's body would track it; one op dispatches ``RowsBump``.
private func rowWorkload<State>(
  name: String, rows: Int, store makeStore: @escaping () -> Store<State>,
  model: @escaping @MainActor (Store<State>, Int) -> ObservedStore<ListItem>,
  counter: KeyPath<State, Int> & Sendable
) -> Workload {
  Workload(
    name: name,
    subject: Measured {
      let store = makeStore()
      let models = MainActor.assumeIsolated {
        let models = (0..<rows).map { model(store, $0) }
        for row in models { track(row) }
        return models
      }
      return { count in
        for _ in 0..<count { store.dispatch(RowsBump()) }
        withExtendedLifetime(models) {}
        return store.currentState[keyPath: counter]
      }
    },
    baseline: Measured {
      let lock = BaselineLock()
      var counter = 0
      return { count in
        for _ in 0..<count {
          lock.lock()
          counter &+= 1
          lock.unlock()
        }
        return counter
      }
    })
}

/// Reads the row model's `title` under observation tracking, as a row view's body would.
@MainActor
private func track(_ model: ObservedStore<ListItem>) {
  withObservationTracking {
    _ = model.title
  } onChange: {
  }
}
