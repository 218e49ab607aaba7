import ReactorKit

/// Toggles the `done` of the item `(step × 7,919) mod count`.
private struct HistoryToggle: Action {
  var step: Int
}

/// `history_bytes_<array|list>_100000`: the heap bytes each of 100 `StateHistory` entries
/// keeps over a state of 100,000 items, each entry one toggled item away from the last
/// (issue 29, item 4). An `Array` entry is a whole copy of the items; an `IdentifiedList`
/// entry shares all but the path to the changed element.
func historyWorkloads() -> [Workload] {
  let count = 100_000
  let entries = 100
  func bytesPerEntry<State: Equatable & Sendable>(
    _ state: State, toggle: @escaping @Sendable (inout State, Int) -> Void
  ) -> Double? {
    let history = StateHistory<State>(capacity: entries + 1)
    let store = Store(
      reducer: Reducer<State>.on(HistoryToggle.self) { state, action in
        toggle(&state, action.step)
      }, state: state, plugins: [history])
    store.dispatch(HistoryToggle(step: 0))  // warm up: the first copy of a shared buffer
    guard let before = heapBytesInUse() else { return nil }
    for step in 1...entries { store.dispatch(HistoryToggle(step: step)) }
    guard let after = heapBytesInUse() else { return nil }
    withExtendedLifetime(store) {}
    return Double(after - before) / Double(entries)
  }
  return [
    Workload(
      name: "history_bytes_array_\(count)",
      bytes: {
        bytesPerEntry(ArrayScaleState(count: count)) { state, step in
          state.items[(step &* 7_919) % state.items.count].isDone.toggle()
        }
      }),
    Workload(
      name: "history_bytes_list_\(count)",
      bytes: {
        bytesPerEntry(ListScaleState(count: count)) { state, step in
          state.items[(step &* 7_919) % state.items.count].isDone.toggle()
        }
      },
      targets: [.bytes(16_384)]),
  ]
}

/// `flight_recorder_idle_dispatch`: the counter store of `inspector_idle_dispatch` with a
/// `FlightRecorder` installed (capacity 1,000) and nobody exporting; one op is one dispatch.
/// Baseline: the same store without it. Issue 32's target: at most twice what the inspector
/// adds while idle (measured against `inspector_idle_dispatch` with callgrind).
func flightRecorderIdleDispatch() -> Workload {
  var registry = ActionRegistry()
  registry.register(CounterAction.self)
  let recorder = FlightRecorder<Counter>(registry: registry, capacity: 1_000)
  return Workload(
    name: "flight_recorder_idle_dispatch",
    subject: counterStore(plugins: [recorder.forStore()]), baseline: counterStore(plugins: []),
    targets: [.addedNanoseconds(200)])
}
