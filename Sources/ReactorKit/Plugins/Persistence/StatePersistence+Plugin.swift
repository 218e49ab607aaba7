extension StatePersistence: StorePlugin {
  /// Saves every new state of the store, throttled (``Store/init(reducer:state:middleware:plugins:)``
  /// calls it): the store's current state is not written (it was just restored, or is the
  /// initial state); each later state is. ``Store/flushPlugins()`` flushes, and so does freeing
  /// the store (a failure then goes to `onError`).
  ///
  /// - Precondition: When the state file exists, ``restore(initialState:recovery:)`` ran
  ///   first: otherwise the store's first save would overwrite the saved state.
  public func install(in setup: inout StorePluginSetup<State>) {
    setup.onStart { [self] store in
      checkRestoredBeforeSaving()
      return store.state.skip(1).subscribe(onNext: { [self] state in submit(state) })
    }
    setup.onFlush { [self] in try flush() }
    setup.onClose { [self] in flushReportingErrors() }
  }
}
