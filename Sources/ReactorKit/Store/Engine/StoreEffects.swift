import ReactorKitStreams

/// The effect runners of one store (one per ``Middleware/effects(_:)`` stage), for the test
/// store: which effects are still running, and a way to cancel them all.
///
/// Made by ``StoreChain/install(_:in:dispatch:)`` and handed to each middleware as it is
/// connected; the chain keeps it, so it lives as long as the store's engine. Nothing on the
/// dispatch path reads it.
@usableFromInline
final class StoreEffects: @unchecked Sendable {
  // Safety: `runners` is guarded by `lock`; runners synchronise themselves.
  private let lock = Lock()
  private var runners: [EffectRunner] = []

  @usableFromInline
  init() {}

  /// Adds the runner of an effects stage being connected.
  func add(_ runner: EffectRunner) {
    lock.withLock { runners.append(runner) }
  }

  /// The ids of each running effect, stage by stage, oldest first.
  var runningIDs: [[AnyHashable]] {
    lock.withLock { runners }.flatMap(\.runningIDs)
  }

  /// Disposes every running effect.
  func cancelAll() {
    for runner in lock.withLock({ runners }) { runner.cancelAll() }
  }
}
