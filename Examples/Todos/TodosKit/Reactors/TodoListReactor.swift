import ReactorKit

/// The todo list: shows the todos that pass the filter, with a selection; toggles, deletes
/// and filters them, and undoes or redoes changes, through the services.
///
/// The todos and the filter live in the app's store; the reactor follows them by merging
/// `store.slice(\.todos.items)` and `store.slice(\.settings.filter)` into its mutations, so
/// it also follows changes it did not make (another reactor's, or an undo).
/// Rows are 0-based positions in ``State/visibleTodos``.
public final class TodoListReactor: Reactor {
  public enum Action: Equatable, Sendable {
    case toggle(row: Int)
    case delete(row: Int)
    case deleteDone
    case setFilter(TodoFilter)
    case cycleFilter
    case moveSelection(by: Int)
    case undo
    case redo
  }

  public enum Mutation: Equatable, Sendable {
    case setTodos(IdentifiedList<Todo>)
    case setFilter(TodoFilter)
    case setSelection(Int)
    case setAlertMessage(String)
  }

  public struct State {
    /// Every todo, from the store.
    public var todos: IdentifiedList<Todo>
    /// The filter, from the store's settings.
    public var filter: TodoFilter
    /// The selected row of ``visibleTodos`` (0 when the list is empty).
    public var selectedRow = 0
    /// A message to show once, such as a failed command.
    @Pulse public var alertMessage: String?

    public init(todos: IdentifiedList<Todo>, filter: TodoFilter) {
      self.todos = todos
      self.filter = filter
    }

    /// The todos that pass the filter, in list order.
    public var visibleTodos: [Todo] { todos.filter(filter.includes) }
  }

  public let initialState: State
  private let provider: ServiceProviderType

  public init(provider: ServiceProviderType) {
    self.provider = provider
    let app = provider.store.currentState
    initialState = State(todos: app.todos.items, filter: app.settings.filter)
  }

  public func mutate(action: Action) -> Observable<Mutation> {
    let state = currentState
    switch action {
    case .toggle(let row):
      guard let todo = state.visibleTodos[safe: row] else { return noTodo(atRow: row) }
      return provider.todoService.toggle(id: todo.id).effect(onError: Self.alert)
    case .delete(let row):
      guard let todo = state.visibleTodos[safe: row] else { return noTodo(atRow: row) }
      return provider.todoService.delete(id: todo.id).effect(onError: Self.alert)
    case .deleteDone:
      return provider.todoService.deleteDone()
        .map { .setAlertMessage($0 == 1 ? "Deleted 1 done todo." : "Deleted \($0) done todos.") }
    case .setFilter(let filter):
      return provider.settingsService.setFilter(filter).effect(onError: Self.alert)
    case .cycleFilter:
      return provider.settingsService.setFilter(state.filter.next).effect(onError: Self.alert)
    case .moveSelection(let offset):
      return .just(.setSelection(state.selectedRow + offset))
    case .undo:
      return provider.historyService.undo()
        .compactMap { $0 ? nil : .setAlertMessage("Nothing to undo.") }
    case .redo:
      return provider.historyService.redo()
        .compactMap { $0 ? nil : .setAlertMessage("Nothing to redo.") }
    }
  }

  public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    let store = provider.store
    return .merge(
      mutation,
      store.slice(\.todos.items, as: Mutation.setTodos),
      store.slice(\.settings.filter, as: Mutation.setFilter))
  }

  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setTodos(let todos):
      state.todos = todos
    case .setFilter(let filter):
      state.filter = filter
    case .setSelection(let row):
      state.selectedRow = row
    case .setAlertMessage(let message):
      state.alertMessage = message
    }
    state.selectedRow = min(max(0, state.selectedRow), max(0, state.visibleTodos.count - 1))
    return state
  }

  private func noTodo(atRow row: Int) -> Observable<Mutation> {
    .just(.setAlertMessage("There is no todo #\(row + 1) in this list."))
  }

  private static func alert(_ error: Error) -> Mutation {
    .setAlertMessage(String(describing: error))
  }
}

extension Array {
  subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
