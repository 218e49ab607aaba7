import ReactorKit

/// Edits the title of a new or an existing todo and saves it through the todo service.
///
/// When editing, it follows its todo by `id` (`store.slice(\.todos.items, id:)`, which costs
/// nothing while other todos change) and closes itself if the todo disappears meanwhile
/// (deleted, or undone by time travel).
public final class TodoEditorReactor: Reactor {
  /// What the editor saves.
  public enum Mode: Codable, Equatable, Sendable {
    case add
    case edit(Todo)
  }

  public enum Action: Equatable, Sendable {
    case updateTitle(String)
    case submit
    case cancel
  }

  public enum Mutation: Codable, Equatable, Sendable {
    case setTitle(String)
    case setValidationMessage(String)
    case dismiss
  }

  public struct State: Codable, Equatable, Sendable {
    public let mode: Mode
    public var title: String
    /// Why the last submit failed.
    public var validationMessage: String?
    /// Whether the editor is finished (saved or cancelled).
    public var isDismissed = false

    public init(mode: Mode) {
      self.mode = mode
      if case .edit(let todo) = mode {
        title = todo.title
      } else {
        title = ""
      }
    }
  }

  public let initialState: State
  private let provider: ServiceProviderType

  public init(provider: ServiceProviderType, mode: Mode) {
    self.provider = provider
    initialState = State(mode: mode)
  }

  public func mutate(action: Action) -> Observable<Mutation> {
    let state = currentState
    guard !state.isDismissed else { return .empty() }
    switch action {
    case .updateTitle(let title):
      return .just(.setTitle(title))
    case .submit:
      let service = provider.todoService
      let save =
        switch state.mode {
        case .add: service.add(title: state.title)
        case .edit(let todo): service.edit(id: todo.id, title: state.title)
        }
      return save.map { _ in .dismiss }
        .catch { .just(.setValidationMessage(String(describing: $0))) }
    case .cancel:
      return .just(.dismiss)
    }
  }

  public func transform(mutation: Observable<Mutation>) -> Observable<Mutation> {
    guard case .edit(let todo) = initialState.mode else { return mutation }
    let deleted = provider.store.slice(\.todos.items, id: todo.id)
      .filter { $0 == nil }
      .map { _ in Mutation.dismiss }
    return .merge(mutation, deleted)
  }

  public func reduce(state: State, mutation: Mutation) -> State {
    var state = state
    switch mutation {
    case .setTitle(let title):
      state.title = title
      state.validationMessage = nil
    case .setValidationMessage(let message):
      state.validationMessage = message
    case .dismiss:
      state.isDismissed = true
    }
    return state
  }
}
