import Foundation
import ReactorKit
import ReactorKitInspector

// The state-at-scale workloads (issue 29): one dispatch that changes one element of a list of
// N items, for N = 100, 10,000 and 100,000. Compare each with its own 100-item row: a cost
// that grows with N is a cost of the whole state.

/// What one op does to the list.
enum ScaleOperation: String, CaseIterable {
  /// Toggles one item (by `id` in an `IdentifiedList`, by position in an `Array`).
  case toggle
  /// Inserts an item at the front, then (the next op) removes it again, so N stays.
  case insertFront = "insert_front"
  /// Removes the middle item, then (the next op) inserts a new one there, so N stays.
  case removeMiddle = "remove_middle"
}

/// One op of a scale workload: `operation` as the `step`th op.
struct ScaleAction: Action {
  var operation: ScaleOperation
  var step: Int
}

/// The (a) state: a plain array.
struct ArrayScaleState: Equatable, Sendable {
  var items: [ListItem]
  var revision = 0
  init(count: Int) {
    items = (0..<count).map { ListItem(id: $0, title: "Item \($0)", isDone: false) }
  }
}

/// The (b) and (c) state: an identified list.
struct ListScaleState: Equatable, Sendable {
  var items: IdentifiedList<ListItem>
  var revision = 0
  init(count: Int) {
    items = IdentifiedList(
      uniqueElements: (0..<count).map { ListItem(id: $0, title: "Item \($0)", isDone: false) })
  }
}

/// Applies one scale op to an array or identified list of `count` original items.
@inline(__always)
func applyScale(_ action: ScaleAction, to items: inout [ListItem], count: Int) {
  switch action.operation {
  case .toggle:
    items[(action.step &* 7_919) % items.count].isDone.toggle()
  case .insertFront:
    if action.step % 2 == 0 {
      items.insert(ListItem(id: -1 - action.step, title: "New", isDone: false), at: 0)
    } else {
      items.removeFirst()
    }
  case .removeMiddle:
    if action.step % 2 == 0 {
      items.remove(at: items.count / 2)
    } else {
      items.insert(
        ListItem(id: count + action.step, title: "New", isDone: false), at: items.count / 2)
    }
  }
}

@inline(__always)
func applyScale(_ action: ScaleAction, to items: inout IdentifiedList<ListItem>, count: Int) {
  switch action.operation {
  case .toggle:
    items[id: (action.step &* 7_919) % count]?.isDone.toggle()
  case .insertFront:
    if action.step % 2 == 0 {
      items.insert(ListItem(id: -1 - action.step, title: "New", isDone: false), at: 0)
    } else {
      items.remove(at: 0)
    }
  case .removeMiddle:
    if action.step % 2 == 0 {
      items.remove(at: items.count / 2)
    } else {
      items.insert(
        ListItem(id: count + action.step, title: "New", isDone: false), at: items.count / 2)
    }
  }
}

/// What a scale workload attaches to the store.
enum ScaleSetup: String {
  /// (a) an `Array` state, no subscriber.
  case array
  /// (b) an `IdentifiedList` state, a slice subscriber on the list and an `ObservedStore`
  /// reading it.
  case list
  /// (c) (b) plus `StateHistory` (capacity 100), a `LoggingPlugin` with a sink that drops
  /// every event, and the inspector (no page).
  case plugins
  /// (c) with the logger writing text lines to a file instead.
  case pluginsFile = "plugins_file"
}

private func scaleStore(_ setup: ScaleSetup, _ operation: ScaleOperation, count: Int) -> Measured {
  Measured {
    var step = 0
    switch setup {
    case .array:
      let store = Store(
        reducer: Reducer<ArrayScaleState> { state, action in
          if let action = action as? ScaleAction {
            applyScale(action, to: &state.items, count: count)
          }
        }, state: ArrayScaleState(count: count))
      return { operations in
        for _ in 0..<operations {
          store.dispatch(ScaleAction(operation: operation, step: step))
          step &+= 1
        }
        return store.currentState.items.count
      }
    case .list, .plugins, .pluginsFile:
      var plugins: [any StorePlugin<ListScaleState>] = []
      var keepAlive: [AnyObject] = []
      if setup != .list {
        let history = StateHistory<ListScaleState>(capacity: 100)
        plugins.append(history)
        let sink: LogSink
        if setup == .pluginsFile {
          let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("reactorkit-scale-\(getpid()).log")
          sink = (try? LogSink.file(url, format: .text, truncate: true)) ?? LogSink { _ in }
        } else {
          sink = LogSink { _ in }
        }
        let logger = LoggingPlugin(sink: sink)
        plugins.append(logger.forStore())
        keepAlive.append(history)
        keepAlive.append(logger)
        if let inspector = try? Inspector() {
          plugins.append(inspector.forStore(source: "store"))
          keepAlive.append(inspector)
        }
      }
      let store = Store(
        reducer: Reducer<ListScaleState> { state, action in
          if let action = action as? ScaleAction {
            applyScale(action, to: &state.items, count: count)
          }
        }, state: ListScaleState(count: count), plugins: plugins)
      var seen = 0
      let subscription = store.slice(\.items).subscribe(onNext: { seen &+= $0.count })
      _ = seen
      let model = MainActor.assumeIsolated { ObservedStore(store) }
      return { operations in
        let total = MainActor.assumeIsolated {
          var total = 0
          for _ in 0..<operations {
            store.dispatch(ScaleAction(operation: operation, step: step))
            step &+= 1
            total &+= model.items.count
          }
          return total
        }
        withExtendedLifetime(subscription) {}
        withExtendedLifetime(keepAlive) {}
        return total
      }
    }
  }
}

/// The same op on a local value, no store: the floor.
private func scaleBaseline(_ setup: ScaleSetup, _ operation: ScaleOperation, count: Int) -> Measured
{
  Measured {
    var step = 0
    let lock = BaselineLock()
    if setup == .array {
      var state = ArrayScaleState(count: count)
      return { operations in
        for _ in 0..<operations {
          lock.lock()
          applyScale(ScaleAction(operation: operation, step: step), to: &state.items, count: count)
          lock.unlock()
          step &+= 1
        }
        return state.items.count
      }
    }
    var state = ListScaleState(count: count)
    return { operations in
      var total = 0
      for _ in 0..<operations {
        lock.lock()
        applyScale(ScaleAction(operation: operation, step: step), to: &state.items, count: count)
        lock.unlock()
        step &+= 1
        total &+= state.items.count
      }
      return total
    }
  }
}

/// `scale_<setup>_<operation>_<count>` for every setup, op and N; and
/// `scale_foreach_toggle_<count>`: an `ElementAction` reduced by `forEach` on the list (setup
/// (b)). Targets: 100,000 items at most 1.5× (a, toggle) or 3× (b, c) the 100-item cost.
func scaleWorkloads() -> [Workload] {
  var workloads: [Workload] = []
  for setup in [ScaleSetup.array, .list, .plugins, .pluginsFile] {
    for operation in ScaleOperation.allCases {
      for count in [100, 10_000, 100_000] {
        let name = "scale_\(setup.rawValue)_\(operation.rawValue)"
        var targets: [Target] = []
        if count == 100_000 && (setup != .array || operation == .toggle) {
          targets = [.relative(to: "\(name)_100", factor: setup == .array ? 1.5 : 3)]
        }
        workloads.append(
          Workload(
            name: "\(name)_\(count)",
            subject: scaleStore(setup, operation, count: count),
            baseline: scaleBaseline(setup, operation, count: count),
            validationCount: 100, targets: targets))
      }
    }
  }
  for count in [100, 10_000, 100_000] {
    workloads.append(
      Workload(
        name: "scale_foreach_toggle_\(count)",
        subject: forEachStore(count: count),
        baseline: scaleBaseline(.list, .toggle, count: count),
        validationCount: 100,
        targets: count == 100_000
          ? [.relative(to: "scale_foreach_toggle_100", factor: 3)] : []))
  }
  return workloads
}

/// A row's own action, reduced by `forEach` over the list.
enum RowAction: Action { case toggle }

private func forEachStore(count: Int) -> Measured {
  Measured {
    let row = Reducer<ListItem>.on(RowAction.self) { item, _ in item.isDone.toggle() }
    let store = Store(
      reducer: row.forEach(\ListScaleState.items), state: ListScaleState(count: count))
    var seen = 0
    let subscription = store.slice(\.items).subscribe(onNext: { seen &+= $0.count })
    _ = seen
    let model = MainActor.assumeIsolated { ObservedStore(store) }
    var step = 0
    return { operations in
      let total = MainActor.assumeIsolated {
        var total = 0
        for _ in 0..<operations {
          store.dispatch(ElementAction(id: (step &* 7_919) % count, action: RowAction.toggle))
          step &+= 1
          total &+= model.items.count
        }
        return total
      }
      withExtendedLifetime(subscription) {}
      return total
    }
  }
}
