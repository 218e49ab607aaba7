/// What ``StatePersistence/restore(initialState:recovery:)`` does when the state file is bad.
public enum RecoveryPolicy: Sendable, Equatable {
  /// Throw the ``PersistenceError`` (after moving the bad file aside). The app decides what
  /// to do; nothing starts from the initial state unless it says so.
  case fail
  /// Move the bad file aside and start from the initial state; the error is reported in
  /// ``RestoredState/origin``.
  case startFresh
}

/// The state ``StatePersistence/restore(initialState:recovery:)`` returns, and where it
/// came from.
public struct RestoredState<State> {
  /// Where a restored state came from.
  public enum Origin {
    /// The state file.
    case file
    /// The initial state: there was no state file.
    case noFile
    /// The initial state, because the file was bad and the policy was
    /// ``RecoveryPolicy/startFresh``. The error names the problem and where the file went.
    case recovered(PersistenceError)
  }

  /// The state to start the store with.
  public let state: State
  public let origin: Origin
  /// The schema version of the file when ``StateMigration``s moved it to the app's version
  /// (the migrated state is already saved); `nil` when no migration ran.
  public let migratedFrom: Int?

  init(state: State, origin: Origin, migratedFrom: Int? = nil) {
    self.state = state
    self.origin = origin
    self.migratedFrom = migratedFrom
  }
}
