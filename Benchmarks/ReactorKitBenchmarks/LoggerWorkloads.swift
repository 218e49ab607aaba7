import Foundation
import ReactorKit

// The logger at scale (issue 29, item 4): a store of N identified items with only a
// `LoggingPlugin` installed; one op toggles one item. What the dispatching thread pays:
// `logger_none_toggle_<N>` without a logger (the floor), `logger_discarding_toggle_<N>` with `LogSink.discarding`, `logger_rejecting_toggle_<N>` with a
// filter that rejects the action, `logger_enabled_toggle_<N>` with a sink that takes every
// event (rendering and diffing run on the logger's queue, which callgrind's toggle on the
// measured function does not count; the op flushes every 100 dispatches so the queue stays
// short and the count includes waiting for it).

func loggerWorkloads() -> [Workload] {
  [100, 100_000].flatMap { count in
    [
      loggerWorkload("logger_none_toggle_\(count)", count: count) { nil },
      loggerWorkload("logger_discarding_toggle_\(count)", count: count) {
        LoggingPlugin(sink: .discarding)
      },
      loggerWorkload("logger_rejecting_toggle_\(count)", count: count) {
        LoggingPlugin(sink: LogSink { _ in }, filter: LogFilter(actions: { _ in false }))
      },
      loggerWorkload("logger_enabled_toggle_\(count)", count: count) {
        LoggingPlugin(sink: LogSink { _ in })
      },
    ]
  }
}

private func loggerWorkload(
  _ name: String, count: Int, logger makeLogger: @escaping () -> LoggingPlugin?
) -> Workload {
  Workload(
    name: name,
    subject: Measured {
      let logger = makeLogger()
      let store = Store(
        reducer: Reducer<ListScaleState> { state, action in
          if let action = action as? ScaleAction {
            applyScale(action, to: &state.items, count: count)
          }
        }, state: ListScaleState(count: count), plugins: logger.map { [$0.forStore()] } ?? [])
      var step = 0
      return { operations in
        var total = 0
        for _ in 0..<operations {
          store.dispatch(ScaleAction(operation: .toggle, step: step))
          total &+= (step &* 7_919) % count
          step &+= 1
          if step % 100 == 0 { logger?.flush() }
        }
        logger?.flush()
        return total &+ store.currentState.items.count
      }
    },
    baseline: Measured {
      let lock = BaselineLock()
      var state = ListScaleState(count: count)
      var step = 0
      return { operations in
        var total = 0
        for _ in 0..<operations {
          lock.lock()
          applyScale(ScaleAction(operation: .toggle, step: step), to: &state.items, count: count)
          lock.unlock()
          total &+= (step &* 7_919) % count
          step &+= 1
        }
        return total &+ state.items.count
      }
    })
}
