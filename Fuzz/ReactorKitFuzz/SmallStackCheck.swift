import Foundation
import ReactorKit

/// A state of 256 KiB stored inline: 32,768 `Int`s in an `InlineArray`.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
struct SmallStackState {
  var counter = 0
  var block = InlineArray<32_768, Int>(repeating: 0)
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension SmallStackState: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool {
    guard lhs.counter == rhs.counter else { return false }
    for index in lhs.block.indices where lhs.block[index] != rhs.block[index] { return false }
    return true
  }
}

struct SmallStackBump: Action {}

/// Issue 29, item 5, in the optimized build: a 256 KiB inline state dispatched three times
/// from a thread with a 512 KiB stack, with `StateHistory` and `LoggingPlugin` installed and a
/// slice subscriber.
/// Prints the outcome; returns whether it worked. An overflow may jump the guard page and
/// crash another thread: any crash of this process is a failure.
///
/// `ReactorKitFuzz small-stack` runs it: CI runs the plain release build's, and the one
/// `scripts/fuzz.sh` builds with the address sanitizer (optimized, without the benchmarks'
/// malloc counter, which that sanitizer refuses).
///
/// What it took: the engine's frames are small (a
/// reduction with observers and each delivery of a state over 4 KiB copy it once, in frames
/// of their own); the logger boxes the states it keeps; and `StateHistory`, whose reducer runs
/// unspecialised, keeps no local state in the closure the store calls (the optimizer hoists
/// every generic stack slot to a function's entry, so one `let before = state` cost 256 KiB
/// on every path) and copies a large state straight into its entries' boxes.
func runSmallStackCheck() -> Bool {
  guard #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) else {
    print("small-stack check: skipped (InlineArray needs macOS 26 or later)")
    return true
  }
  // The history of the whole state, then of a part (a scoped history reads its part through
  // the key path: here the part is the whole state, as large).
  let whole = smallStackDispatch(scoped: false)
  let part = smallStackDispatch(scoped: true)
  return whole && part
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
private func smallStackDispatch(scoped: Bool) -> Bool {
  let history = StateHistory<SmallStackState>(capacity: 4)
  let historyPlugin: any StorePlugin<SmallStackState> =
    scoped ? history.scoped(to: \SmallStackState.self) : history
  let lines = LockedCounter()
  let logger = LoggingPlugin(sink: LogSink { _ in lines.increment() })
  let store = Store(
    reducer: Reducer<SmallStackState>.on(SmallStackBump.self) { state, _ in
      state.counter += 1
      state.block[12_345] = state.counter
    }, state: SmallStackState(), plugins: [historyPlugin, logger.forStore()])
  let delivered = LockedCounter()
  // A slice subscriber (the engine evaluates it on the published state, in place). A
  // subscriber of the whole state (`store.state`) needs more stack: the streams core copies
  // the event and then its element (two more copies of the state).
  let subscription = store.slice(\.counter).subscribe(onNext: { _ in delivered.increment() })
  defer { subscription.dispose() }
  let finished = DispatchSemaphore(value: 0)
  let thread = Thread {
    for _ in 0..<3 { store.dispatch(SmallStackBump()) }
    finished.signal()
  }
  thread.stackSize = 512 * 1_024
  thread.start()
  guard finished.wait(timeout: .now() + 30) == .success else {
    print("small-stack check: FAILED (the dispatching thread did not finish within 30 s)")
    return false
  }
  logger.flush()
  let state = store.currentState
  let worked =
    state.counter == 3 && state.block[12_345] == 3 && lines.value == 6 && history.count == 4
    && delivered.value == 4
  print(
    "small-stack check: \(worked ? "ok" : "FAILED") (256 KiB state, 512 KiB stack, "
      + "\(scoped ? "scoped history" : "history"), "
      + "counter \(state.counter), \(lines.value) log lines, \(history.count) history entries, "
      + "\(delivered.value) slice values delivered)")
  return worked
}

/// A counter the logger's sink bumps on its own queue.
final class LockedCounter: @unchecked Sendable {
  // Safety: `count` is guarded by `lock`.
  private let lock = NSLock()
  private var count = 0

  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}
