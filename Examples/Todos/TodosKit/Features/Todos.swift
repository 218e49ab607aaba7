import ReactorKit

/// One thing to do.
public struct Todo: Codable, Equatable, Hashable, Identifiable, Sendable {
  public var id: Int
  public var title: String
  public var isDone: Bool

  public init(id: Int, title: String, isDone: Bool = false) {
    self.id = id
    self.title = title
    self.isDone = isDone
  }
}

/// The todos, in the order they were added.
///
/// The list is an `IdentifiedList`: a change to one todo copies a few small nodes, not the
/// list, even while the undo history, the editor and the views hold earlier versions; a todo is
/// found by `id` in O(log N); and it saves as the JSON array that earlier versions wrote.
public struct TodosState: Codable, Equatable, Sendable {
  public var items: IdentifiedList<Todo>
  /// The identifier the next added todo gets; identifiers are never reused.
  public var nextID: Int

  public init(items: IdentifiedList<Todo> = [], nextID: Int = 1) {
    self.items = items
    self.nextID = nextID
  }
}

/// Changes to the todos. Actions naming an unknown identifier change nothing.
public enum TodoAction: StoreAction, Codable, Equatable, Sendable {
  case add(title: String)
  case edit(id: Int, title: String)
  case toggle(id: Int)
  case delete(id: Int)
  case deleteDone
}

extension TodosState {
  /// The todos feature's reducer.
  public static let reducer = Reducer<TodosState>.on(TodoAction.self) { state, action in
    switch action {
    case .add(let title):
      state.items.append(Todo(id: state.nextID, title: title))
      state.nextID += 1
    case .edit(let id, let title):
      state.items[id: id]?.title = title
    case .toggle(let id):
      state.items[id: id]?.isDone.toggle()
    case .delete(let id):
      state.items.remove(id: id)
    case .deleteDone:
      state.items.removeAll(where: \.isDone)
    }
  }
}
