import ReactorKit

/// The whole app's state, held by one `Store<AppState>`: each feature owns one field.
public struct AppState: Codable, Equatable, Sendable {
  public var session: SessionState
  public var settings: SettingsState
  public var todos: TodosState

  public init(
    session: SessionState = SessionState(), settings: SettingsState = SettingsState(),
    todos: TodosState = TodosState()
  ) {
    self.session = session
    self.settings = settings
    self.todos = todos
  }
}

extension AppState {
  /// The version of the saved state's shape, the persistence's `schemaVersion`: 2 since the
  /// settings save the filter as `listFilter` (version 1 called it `filter`).
  public static let schemaVersion = 2

  /// How state files of earlier versions become this one, step by step.
  public static let migrations: [StateMigration] = [
    // 1 → 2: the filter's key was renamed.
    .json(from: 1) { state in
      let filter = state["settings"]?["filter"]
      state["settings"]?["listFilter"] = filter
      state["settings"]?["filter"] = nil
    }
  ]
}

extension AppState {
  /// The app's reducer: each feature's reducer lifted to its field, combined. (The todos'
  /// undo history is a plugin the `ServiceProvider` installs, scoped to `\.todos`.)
  public static let reducer = Reducer<AppState>.combine(
    SessionState.reducer.lift(\.session),
    SettingsState.reducer.lift(\.settings),
    TodosState.reducer.lift(\.todos))
}

extension AppState {
  /// Every action type the store reduces, by name: what the inspector's dispatch form, a
  /// recording and a flight recorder's export can hold.
  public static var actionRegistry: ActionRegistry {
    var registry = ActionRegistry()
    registry.register(TodoAction.self)
    registry.register(SessionAction.self)
    registry.register(SettingsAction.self)
    registry.register(HistoryAction.self)
    return registry
  }
}
