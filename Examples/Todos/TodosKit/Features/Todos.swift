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
public struct TodosState: Codable, Equatable, Sendable {
  public var items: [Todo]
  /// The identifier the next added todo gets; identifiers are never reused.
  public var nextID: Int

  public init(items: [Todo] = [], nextID: Int = 1) {
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
      if let index = state.items.firstIndex(where: { $0.id == id }) {
        state.items[index].title = title
      }
    case .toggle(let id):
      if let index = state.items.firstIndex(where: { $0.id == id }) {
        state.items[index].isDone.toggle()
      }
    case .delete(let id):
      state.items.removeAll { $0.id == id }
    case .deleteDone:
      state.items.removeAll(where: \.isDone)
    }
  }
}
