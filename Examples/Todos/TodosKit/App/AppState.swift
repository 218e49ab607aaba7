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
  /// The app's reducer: each feature's reducer lifted to its field, combined.
  public static let reducer = combined(todos: TodosState.reducer)

  /// The app's reducer with the todos recorded in `history`, so that they can be undone and
  /// redone (the session and the settings are not part of the history).
  public static func reducer(recordingTodosIn history: StateHistory<TodosState>)
    -> Reducer<AppState>
  {
    combined(todos: history.reducer(TodosState.reducer))
  }

  private static func combined(todos: Reducer<TodosState>) -> Reducer<AppState> {
    .combine(
      SessionState.reducer.lift(\.session),
      SettingsState.reducer.lift(\.settings),
      todos.lift(\.todos))
  }
}
