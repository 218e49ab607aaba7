import ReactorKit

/// The reactor side of an inspector: a ``ReactorHook`` records each action the reactor
/// receives and each mutation with the states before and after it.
final class ReactorSource<R: Reactor>: WatchedOnlySource, @unchecked Sendable {
  // Safety: `lastState` is guarded by `lock`; `sizes` is only used by the reduce hook, which
  // the reactor runs for one mutation at a time; the rest is immutable.
  let info: SourceInfo
  private let core: InspectorCore
  private let lock = Lock()
  private var lastState: R.State?
  /// The bytes each recorded state keeps alive, for a state with references.
  private var sizes = RetainedBytes()
  private let isPlain = _isPOD(R.State.self)

  init(name: String, core: InspectorCore, redactions: [Redaction<R.State>], initial: R.State) {
    let redacting = UncheckedRedactions(redactions)
    info = SourceInfo(
      name: name, kindName: "reactor",
      redacted: { state in
        guard !redacting.redactions.isEmpty, let state = state as? R.State else { return state }
        return redacting.redactions.redacting(state)
      })
    self.core = core
    lastState = initial
  }

  func hook() -> ReactorHook<R.Action, R.Mutation, R.State> {
    ReactorHook(
      mutate: { [self] action, next in
        if core.isRecording {
          core.ring.append(kind: .action, source: info, value: action)
        }
        return next(action)
      },
      reduce: { [self] state, mutation, next in
        let newState = next(state, mutation)
        lock.withLock { lastState = newState }
        if core.isRecording {
          let bytes =
            isPlain ? RetainedBytes.plainEstimate(R.State.self) : sizes.estimate(newState)
          core.ring.append(
            kind: .mutation, source: info, value: mutation, before: state, after: newState,
            bytes: bytes)
        }
        return newState
      })
  }

  func currentState() -> Any? { lock.withLock { lastState } }
}
