extension Store {
  /// The ids of each effect of the store's ``Middleware/effects(_:)`` stages still running,
  /// oldest first (`[]` for an effect without an id): what `TestStore.finish()` reports.
  package var inFlightEffectIDs: [[AnyHashable]] {
    core.registry.chain?.effects.runningIDs ?? []
  }

  /// Disposes every effect of the store's ``Middleware/effects(_:)`` stages still running;
  /// nothing they emit afterwards is dispatched. Effects started later run as usual.
  package func cancelInFlightEffects() {
    core.registry.chain?.effects.cancelAll()
  }
}
